import LinearAlgebra

/// Why a path-loss calibration could not be made. Messages say what to change.
public enum CalibrationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// There are no samples at all.
    case noSamples
    /// The distance and RSSI arrays differ in length, so they cannot be paired.
    case mismatchedCounts(distances: Int, rssi: Int)
    /// Fewer samples than the fit needs (two parameters and a scale need 3).
    case tooFewSamples(count: Int, required: Int)
    /// All samples are at fewer than two distinct distances, so the exponent is unknown.
    case tooFewDistances(distinct: Int)
    /// The distances are distinct but so close together that the slope cannot be resolved.
    case distancesTooClose(minimum: Double, maximum: Double)
    /// Sample `index` (zero-based) has a distance that is not a positive finite number.
    case invalidDistance(index: Int, value: Double)
    /// Sample `index` (zero-based) has an RSSI that is not a valid reading.
    case invalidRSSI(index: Int, rejection: RSSIRejection)
    /// A method parameter is out of range (for example a trimmed fraction of 0.7).
    case invalidMethod(CalibrationMethod)
    /// The fit is outside the plausible range (``CalibrationResult/plausibleMeasuredPower``,
    /// ``CalibrationResult/plausibleExponent``): the data do not follow a path-loss law.
    case implausibleFit(measuredPower: Double, exponent: Double)
    /// LAPACK failed in a way the checks above did not foresee.
    case numerical(LAPACKError)

    public var description: String {
        switch self {
        case .noSamples:
            return "no calibration samples; record RSSI at several known distances"
        case .mismatchedCounts(let distances, let rssi):
            return "\(distances) distances but \(rssi) RSSI values; give one RSSI per distance"
        case .tooFewSamples(let count, let required):
            return "\(count) calibration sample(s); at least \(required) are needed, better hundreds"
        case .tooFewDistances(let distinct):
            return
                "samples at only \(distinct) distinct distance(s); record at least two distances (better 5–10 from 0.5 to 10 m) so the exponent can be fitted"
        case .distancesTooClose(let lo, let hi):
            return
                "distances span only \(lo)–\(hi) m, too little to fit the exponent; spread them over a factor of 10 or more"
        case .invalidDistance(let index, let value):
            return "sample \(index): distance \(value) is not a positive finite number of metres"
        case .invalidRSSI(let index, let rejection):
            return "sample \(index): \(rejection)"
        case .invalidMethod(let method):
            return
                "calibration method \(method) has a parameter out of range (thresholds > 0, trimmed fraction in 0..<0.5)"
        case .implausibleFit(let p0, let n):
            return
                "fit gives P₀ = \(p0) dBm, n = \(n), outside the plausible range; check that distances are metres and RSSI is dBm, and that the samples span several distances"
        case .numerical(let error):
            return "numerical failure in the fit: \(error)"
        }
    }
}
