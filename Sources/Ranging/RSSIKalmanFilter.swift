/// A one-dimensional Kalman filter on RSSI: the state is the true mean RSSI x (dBm), which
/// moves as a random walk, observed with white measurement noise.
///
///     predict:  x⁻ = x,   P⁻ = P + q Δt                      (F = 1, Q = q Δt)
///     update:   K = P⁻ / (P⁻ + R)                             (H = 1, S = P⁻ + R)
///               x = x⁻ + K (z − x⁻)
///               P = (1 − K)² P⁻ + K² R                        (Joseph form)
///
/// q (dB²/s) says how fast the mean RSSI can wander: walking at v past a beacon at distance d
/// changes it by ≈ (10 n / ln 10) v / d dB/s (10 dB/s at 1 m, 3.5 dB/s at 3 m). R = σ² is the
/// per-sample noise. The defaults q = 4 dB²/s, R = 16 dB² settle at 5 Hz to K ≈ 0.2: a ramp lag
/// of ≈ 0.8 s (1 m at walking speed) and a third of the noise. Unlike the fixed filters it also
/// reports its ``variance``, which grows while no sample arrives.
///
/// - Complexity: O(1) per sample, no allocation.
public struct RSSIKalmanFilter: RSSIFilter, Hashable {
    /// Process noise q, dB² per second (random-walk intensity of the mean RSSI).
    public let processNoise: Double
    /// Measurement noise R, dB² (the variance of one reading about the mean).
    public let measurementVariance: Double
    /// The filtered RSSI x, dBm, or nil before the first sample.
    public private(set) var value: Double?
    /// The variance P of ``value`` after the last sample, dB².
    public private(set) var variance: Double
    private var lastTime: Double?

    /// A filter with process noise `processNoise` dB²/s and measurement variance
    /// `measurementVariance` dB² (both clamped to be positive).
    public init(processNoise: Double = 4, measurementVariance: Double = 16) {
        self.processNoise = processNoise.isFinite ? max(processNoise, 1e-9) : 4
        self.measurementVariance = measurementVariance.isFinite ? max(measurementVariance, 1e-9) : 16
        self.variance = self.measurementVariance
    }

    /// The variance of the estimate extrapolated to `time` (seconds, not before the last
    /// sample): P + q (time − t_last), dB².
    public func predictedVariance(at time: Double) -> Double {
        guard let lastTime, time.isFinite, time > lastTime else { return variance }
        return variance + processNoise * (time - lastTime)
    }

    public mutating func update(rssi: Double, at time: Double) throws(FilterInputError) -> Double {
        try Self.check(rssi: rssi, time: time, after: lastTime)
        guard let x = value, let last = lastTime else {
            value = rssi
            variance = measurementVariance
            lastTime = time
            return rssi
        }
        let prior = variance + processNoise * (time - last)  // P⁻ = P + q Δt
        let gain = prior / (prior + measurementVariance)  // K = P⁻ S⁻¹
        let next = x + gain * (rssi - x)  // x = x⁻ + K (z − x⁻)
        let oneMinusGain = 1 - gain
        variance = oneMinusGain * oneMinusGain * prior + gain * gain * measurementVariance
        value = next
        lastTime = time
        return next
    }

    public mutating func reset() {
        value = nil
        variance = measurementVariance
        lastTime = nil
    }

    /// The settled gain K for samples `sampleInterval` seconds apart:
    /// P⁻ = (a + √(a² + 4aR))/2 with a = qT, K = P⁻/(P⁻ + R).
    public func steadyStateGain(sampleInterval: Double) -> Double {
        let a = processNoise * max(sampleInterval, 0)
        let prior = (a + (a * a + 4 * a * measurementVariance).squareRoot()) / 2
        return prior / (prior + measurementVariance)
    }

    public func rampLag(sampleInterval: Double) -> Double {
        let k = steadyStateGain(sampleInterval: sampleInterval)
        guard k > 0, sampleInterval.isFinite else { return .infinity }
        return sampleInterval * (1 - k) / k
    }

    public func noiseReduction(sampleInterval: Double) -> Double {
        let k = steadyStateGain(sampleInterval: sampleInterval)
        return (k / (2 - k)).squareRoot()
    }
}
