import Foundation

/// Distance from RSSI, and how wrong that distance can be.
///
/// Under log-normal shadowing, ln d̂ − ln d ~ N(0, s²) with s = σ ln 10 / (10 n) for one
/// reading (s/√m for the mean of m readings in dB). Hence the naive inverse
/// d̂ = 10^((P₀ − RSSI) / (10 n)) is the *median* of the distance estimate, not its mean:
/// E[d̂] = d · exp(s²/2). At σ = 4 dB and n = 2 that is +11 %; at n = 1.5, +21 %.
///
/// Which estimate each consumer uses (see Docs/Reference/Ranging.md):
/// - Maximum-likelihood positioning works on RSSI directly and needs neither.
/// - Range-based least squares and the linearised start use ``medianDistance(forRSSI:)``
///   (an unbiased estimate of ln d, the quantity whose error is Gaussian).
/// - Anything that averages distances (a mean over beacons or time) uses
///   ``meanDistance(forRSSI:count:)`` so that the average is unbiased.
/// - Proximity classes use the median: a class boundary is crossed with probability ½
///   when the phone stands on it.
///
/// Every result is finite: distances are clamped to ``distanceRange``; a NaN RSSI or a model
/// with a non-positive or non-finite exponent gives the upper end of that range (no signal
/// information). Validate readings first with ``RSSIReading/init(validating:)``.
extension PathLossModel {
    /// The range every distance result is clamped to, metres (1 cm to 1 km).
    public static let distanceRange: ClosedRange<Double> = 0.01...1000

    /// Standard deviation s of ln d̂ (natural log of the distance estimate) for the mean of
    /// `count` readings: s = σ ln 10 / (10 n √count). Dimensionless.
    ///
    /// `count` below 1 is treated as 1. Returns +∞ for a non-positive exponent.
    @inlinable
    public func logDistanceSigma(count: Int = 1) -> Double {
        guard exponent > 0, exponent.isFinite, sigma.isFinite else { return .infinity }
        return abs(sigma) * M_LN10 / (10 * exponent) / Double(max(count, 1)).squareRoot()
    }

    /// The median distance estimate for `rssi` (dBm), metres: d̂ = 10^((P₀ − RSSI) / (10 n)).
    ///
    /// Unbiased in log space (half the estimates fall below the true distance), biased high
    /// by exp(s²/2) in metres. Clamped to ``distanceRange``.
    @inlinable
    public func medianDistance(forRSSI rssi: Double) -> Double {
        Self.clamped(Foundation.exp((measuredPower - rssi) / logSlope))
    }

    /// The mean-unbiased distance estimate for `rssi` (dBm) when it is the mean of `count`
    /// readings, metres: d̃ = d̂ · exp(−s²/2), so that E[d̃] = d under log-normal shadowing.
    ///
    /// Use it where distances are averaged. Clamped to ``distanceRange``.
    @inlinable
    public func meanDistance(forRSSI rssi: Double, count: Int = 1) -> Double {
        let s = logDistanceSigma(count: count)
        guard s.isFinite else { return Self.distanceRange.upperBound }
        return Self.clamped(Foundation.exp((measuredPower - rssi) / logSlope - s * s / 2))
    }

    /// The bias factor of the median estimate, E[d̂] / d = exp(s²/2), for the mean of `count`
    /// readings. Dimensionless, ≥ 1.
    @inlinable
    public func medianBiasFactor(count: Int = 1) -> Double {
        let s = logDistanceSigma(count: count)
        guard s.isFinite else { return .infinity }
        return Foundation.exp(s * s / 2)
    }

    /// Standard deviation of the mean-unbiased estimate ``meanDistance(forRSSI:count:)`` when
    /// the true distance is `distance` metres: d · √(exp(s²) − 1), metres.
    ///
    /// For small s this is the familiar linearised value d · s = d σ ln 10 / (10 n): range
    /// error grows in proportion to range. Returns the upper end of ``distanceRange`` when
    /// the model is invalid.
    @inlinable
    public func distanceStandardDeviation(atDistance distance: Double, count: Int = 1) -> Double {
        let s = logDistanceSigma(count: count)
        let d = Self.clamped(distance)
        guard s.isFinite else { return Self.distanceRange.upperBound }
        return min(d * (Foundation.expm1(s * s)).squareRoot(), Self.distanceRange.upperBound)
    }

    /// A two-sided interval that holds the true distance with the probability of ±`z`
    /// standard normal deviates (z = 1: 68 %, z = 1.96: 95 %), metres:
    /// [d̂ e^(−z s), d̂ e^(z s)]. Exact under log-normal shadowing; note its asymmetry.
    @inlinable
    public func distanceInterval(forRSSI rssi: Double, count: Int = 1, z: Double = 1) -> ClosedRange<Double> {
        let median = medianDistance(forRSSI: rssi)
        let s = logDistanceSigma(count: count)
        guard s.isFinite, z.isFinite else { return Self.distanceRange }
        let spread = Foundation.exp(abs(z) * s)
        return Self.clamped(median / spread)...Self.clamped(median * spread)
    }

    /// `value` clamped to ``distanceRange``; NaN maps to the upper end.
    @inlinable
    static func clamped(_ value: Double) -> Double {
        if value.isNaN { return distanceRange.upperBound }
        return Swift.min(Swift.max(value, distanceRange.lowerBound), distanceRange.upperBound)
    }
}
