/// A fitted path-loss model with its uncertainty.
public struct CalibrationResult: Sendable, Hashable, Codable {
    /// The fitted model: P₀ (dBm at 1 m), n, and σ (dB, the shadowing standard deviation;
    /// a robust scale for the robust methods, so that gross outliers do not inflate it).
    public var model: PathLossModel
    /// Standard error of P₀, dB.
    public var measuredPowerStandardError: Double
    /// Standard error of n (dimensionless).
    public var exponentStandardError: Double
    /// Correlation between the errors of P₀ and n, in −1...1.
    public var correlation: Double
    /// Number of samples given to the fit.
    public var count: Int
    /// Number of samples that carry full weight at the end (weight ≥ ½; all of them for
    /// least squares, the kept ones for trimmed).
    public var inlierCount: Int
    /// Shortest and longest distance among the samples, metres. The model is an
    /// extrapolation outside it.
    public var distanceSpan: ClosedRange<Double>
    /// How the samples were weighed.
    public var method: CalibrationMethod
    /// Reweighting iterations used (0 for least squares).
    public var iterations: Int

    /// Fits accepted as plausible for P₀, dBm.
    public static let plausibleMeasuredPower: ClosedRange<Double> = -120...0
    /// Fits accepted as plausible for n.
    public static let plausibleExponent: ClosedRange<Double> = 0.1...10

    /// Creates a result from its parts.
    public init(
        model: PathLossModel, measuredPowerStandardError: Double, exponentStandardError: Double,
        correlation: Double, count: Int, inlierCount: Int, distanceSpan: ClosedRange<Double>,
        method: CalibrationMethod, iterations: Int
    ) {
        self.model = model
        self.measuredPowerStandardError = measuredPowerStandardError
        self.exponentStandardError = exponentStandardError
        self.correlation = correlation
        self.count = count
        self.inlierCount = inlierCount
        self.distanceSpan = distanceSpan
        self.method = method
        self.iterations = iterations
    }
}
