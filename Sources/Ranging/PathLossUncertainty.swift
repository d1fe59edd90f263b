import Foundation

/// How uncertain one beacon's path-loss model is: the standard deviations of its measured power
/// P₀ and exponent n, and their correlation, as a calibration or learning from traffic states
/// them.
///
/// A model h(d) = P₀ − 10 n log₁₀ d whose parameters are off by (δP₀, δn) reads off by
/// δP₀ − L δn at distance d (L = 10 log₁₀ d), the same amount every time the phone is at that
/// distance: a bias, which more samples do not average away. Its variance at d is
///
///     s²(d) = σ_P² + L² σ_n² − 2 L ρ σ_P σ_n,
///
/// which the engine's reported radius considers (see `PositioningEngine.Configuration
/// .modelUncertainty`).
public struct PathLossUncertainty: Sendable, Hashable, Codable {
    /// Standard deviation of P₀, dB (≥ 0).
    public var measuredPowerSigma: Double
    /// Standard deviation of n (≥ 0).
    public var exponentSigma: Double
    /// Correlation of the errors of P₀ and n, −1...1 (0 when unknown).
    public var correlation: Double

    /// The uncertainty from its parts; non-finite or negative deviations count as 0 and the
    /// correlation is clamped to −1...1 (0 when not finite).
    public init(measuredPowerSigma: Double, exponentSigma: Double, correlation: Double = 0) {
        self.measuredPowerSigma = measuredPowerSigma.isFinite ? max(measuredPowerSigma, 0) : 0
        self.exponentSigma = exponentSigma.isFinite ? max(exponentSigma, 0) : 0
        self.correlation = correlation.isFinite ? min(max(correlation, -1), 1) : 0
    }

    /// The variance s²(d) of the model's prediction at `distance` metres (at least 1 cm), dB²:
    /// never negative.
    public func variance(atDistance distance: Double) -> Double {
        let l = 10 * Foundation.log10(max(distance.isFinite ? distance : 1, 0.01))
        let p = measuredPowerSigma, n = exponentSigma
        let value = p * p + l * l * n * n - 2 * l * correlation * p * n
        return value.isFinite ? max(value, 0) : 0
    }
}
