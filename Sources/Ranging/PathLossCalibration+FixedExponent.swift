import Foundation
import LinearAlgebra

extension PathLossCalibration {
    /// The fit with the exponent held at `exponent`: every sample says P₀ = y + 10 n log₁₀ d,
    /// so P₀ is a location estimate of zᵢ = yᵢ − n xᵢ (x = −10 log₁₀ d): their mean for least
    /// squares, with standard error σ/√m and σ their standard deviation; their median for the
    /// robust methods, with σ = 1.4826 × their median absolute deviation and standard error
    /// √(π/2) σ/√m (the median's asymptotic variance under Gaussian noise).
    /// - Throws: ``CalibrationError/invalidMethod(_:)`` for a held exponent that is not positive
    ///   and finite, ``CalibrationError/tooFewSamples(count:required:)`` below 2 samples,
    ///   ``CalibrationError/implausibleFit(measuredPower:exponent:)`` for a P₀ out of range.
    func fitLevel(
        x: [Double], rssi: [Double], exponent: Double, span: ClosedRange<Double>
    ) throws(CalibrationError)
        -> CalibrationResult
    {
        guard exponent.isFinite, exponent > 0, CalibrationResult.plausibleExponent.contains(exponent) else {
            throw .invalidMethod(method)
        }
        let m = x.count
        if m < 2 { throw .tooFewSamples(count: m, required: 2) }
        let z = (0..<m).map { rssi[$0] - exponent * x[$0] }
        let p0: Double, sigma: Double, standardError: Double
        if case .leastSquares = method {
            p0 = z.reduce(0, +) / Double(m)
            sigma = (z.map { ($0 - p0) * ($0 - p0) }.reduce(0, +) / Double(m - 1)).squareRoot()
            standardError = sigma / Double(m).squareRoot()
        } else {
            p0 = Median.of(z)
            sigma = 1.4826 * Median.of(z.map { abs($0 - p0) })
            standardError = (Double.pi / 2).squareRoot() * sigma / Double(m).squareRoot()
        }
        guard CalibrationResult.plausibleMeasuredPower.contains(p0) else {
            throw .implausibleFit(measuredPower: p0, exponent: exponent)
        }
        return CalibrationResult(
            model: PathLossModel(measuredPower: p0, exponent: exponent, sigma: max(sigma, PathLossModel.minimumSigma)),
            measuredPowerStandardError: standardError, exponentStandardError: 0, correlation: 0,
            count: m, inlierCount: m, distanceSpan: span, method: method, iterations: 0)
    }
}
