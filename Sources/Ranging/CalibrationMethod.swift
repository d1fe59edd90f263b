/// How ``PathLossCalibration`` weighs the samples.
///
/// All methods fit RSSI = P₀ − n · 10 log₁₀ d by (re)weighted least squares through LAPACK.
/// The robust ones differ in how they treat gross outliers (a body between phone and beacon,
/// a reflection): see Docs/Reference/Ranging.md for measurements of each.
public enum CalibrationMethod: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Ordinary least squares. Optimal for Gaussian shadowing, ruined by gross outliers.
    case leastSquares
    /// Huber M-estimator by iteratively reweighted least squares: residuals beyond
    /// `threshold` robust standard deviations get weight threshold/|u|. Bounded influence,
    /// but one-sided outliers still pull it by about ε · threshold · σ (ε = outlier share).
    /// The usual threshold is 1.345 (95 % efficiency under Gaussian noise).
    case huber(threshold: Double)
    /// Tukey's bisquare (redescending) M-estimator started from the Huber fit, with the
    /// scale fixed at the Huber fit's MAD: residuals beyond `threshold` robust standard
    /// deviations get weight zero. The usual threshold is 4.685 (95 % efficiency).
    case bisquare(threshold: Double)
    /// Least trimmed squares by concentration steps from the Huber fit: the `fraction`
    /// (0 ..< 0.5) of samples with the largest absolute residuals is left out.
    case trimmed(fraction: Double)

    /// The recommended robust method: ``bisquare(threshold:)`` with threshold 4.685.
    public static let robust = CalibrationMethod.bisquare(threshold: 4.685)

    /// Huber with its customary threshold 1.345.
    public static let huber = CalibrationMethod.huber(threshold: 1.345)

    /// A short name: `leastSquares`, `huber`, `bisquare` or `trimmed`.
    public var name: String {
        switch self {
        case .leastSquares: return "leastSquares"
        case .huber: return "huber"
        case .bisquare: return "bisquare"
        case .trimmed: return "trimmed"
        }
    }

    public var description: String {
        switch self {
        case .leastSquares: return "least squares"
        case .huber(let k): return "Huber (threshold \(k))"
        case .bisquare(let c): return "bisquare (threshold \(c))"
        case .trimmed(let f): return "trimmed (\(f * 100) % left out)"
        }
    }
}
