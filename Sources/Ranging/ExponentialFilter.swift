import Foundation

/// An exponential (first-order low-pass, ARMA(1,0)) filter with a time constant, for
/// irregular sample times, on real numbers throughout (no rounding to integer dBm).
///
/// Each sample moves the output by α = 1 − exp(−Δt/τ) of the way towards it, where Δt is the
/// time since the previous sample: the discrete form of dx/dt = (rssi − x)/τ. Samples closer
/// together than ``minimumInterval`` (duplicates at the same time) count as that far apart, so
/// that none is ignored. On a ramp the output lags by about τ (exactly T(1 − α)/α for
/// samples T apart); the default τ = 1 s costs ≈ 1 s, 1.2 m at walking speed, and leaves
/// √(α/(2 − α)) of white noise (0.22 at 10 Hz).
///
/// - Complexity: O(1) per sample, no allocation.
public struct ExponentialFilter: RSSIFilter, Hashable {
    /// Time constant τ, seconds (> 0).
    public let timeConstant: Double
    /// The least Δt a sample is credited with, seconds.
    public let minimumInterval: Double
    /// The filtered RSSI, dBm, or nil before the first sample.
    public private(set) var value: Double?
    private var lastTime: Double?

    /// Default time constant for a walking person, seconds.
    public static let defaultTimeConstant = 1.0

    /// A filter with time constant `timeConstant` seconds (clamped to at least 1 ms);
    /// `minimumInterval` (default 0.1 s, a typical advertising interval) is the Δt credited
    /// to samples that arrive together.
    public init(timeConstant: Double = ExponentialFilter.defaultTimeConstant, minimumInterval: Double = 0.1) {
        self.timeConstant = timeConstant.isFinite ? max(timeConstant, 0.001) : ExponentialFilter.defaultTimeConstant
        self.minimumInterval = minimumInterval.isFinite ? max(minimumInterval, 0) : 0.1
    }

    /// The weight α = 1 − exp(−Δt/τ) a sample gets after a gap of `interval` seconds.
    public func weight(afterInterval interval: Double) -> Double {
        -Foundation.expm1(-max(interval, minimumInterval) / timeConstant)
    }

    public mutating func update(rssi: Double, at time: Double) throws(FilterInputError) -> Double {
        try Self.check(rssi: rssi, time: time, after: lastTime)
        let next: Double
        if let value, let lastTime {
            next = value + weight(afterInterval: time - lastTime) * (rssi - value)
        } else {
            next = rssi
        }
        value = next
        lastTime = time
        return next
    }

    public mutating func reset() {
        value = nil
        lastTime = nil
    }

    public func rampLag(sampleInterval: Double) -> Double {
        let alpha = weight(afterInterval: sampleInterval)
        guard alpha > 0, sampleInterval.isFinite else { return timeConstant }
        return max(sampleInterval, minimumInterval) * (1 - alpha) / alpha
    }

    public func noiseReduction(sampleInterval: Double) -> Double {
        let alpha = weight(afterInterval: sampleInterval)
        return (alpha / (2 - alpha)).squareRoot()
    }
}
