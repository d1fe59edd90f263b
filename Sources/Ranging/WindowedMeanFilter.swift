/// The mean of the RSSI samples of the last `window` seconds, kept as a running sum over a
/// ring buffer.
///
/// A sample at time tᵢ counts while tᵢ > t − window. On a ramp the output lags by about
/// window / 2 (exactly T(N − 1)/2 for N samples T apart in the window); the default 2 s
/// window costs ≈ 1 s, 1.2 m at walking speed. (A 20 s window, as some libraries use,
/// lags 10 s: 12 m.) It is the least efficient of the three smoothers for a given lag.
///
/// - Complexity: amortised O(1) per sample (each sample is added and evicted once); memory
///   O(capacity), allocated once at initialisation. When more than `capacity` samples fall
///   in the window, the oldest is evicted early.
public struct WindowedMeanFilter: RSSIFilter, Hashable {
    /// Window length, seconds (> 0).
    public let window: Double
    /// Most samples held at once.
    public let capacity: Int

    private var times: [Double]
    private var values: [Double]
    private var head = 0  // index of the oldest sample
    private var count = 0
    private var sum = 0.0
    private var compensation = 0.0  // Kahan–Babuška compensation of `sum`
    private var lastTime: Double?

    /// Default window for a walking person, seconds.
    public static let defaultWindow = 2.0

    /// A filter averaging over `window` seconds (clamped to at least 1 ms) holding at most
    /// `capacity` samples (at least 1); the default holds 2 s at 128 Hz.
    public init(window: Double = WindowedMeanFilter.defaultWindow, capacity: Int = 256) {
        self.window = window.isFinite ? max(window, 0.001) : WindowedMeanFilter.defaultWindow
        self.capacity = max(capacity, 1)
        self.times = Array(repeating: 0, count: self.capacity)
        self.values = Array(repeating: 0, count: self.capacity)
    }

    /// The mean RSSI of the samples in the window, dBm, or nil before the first sample.
    public var value: Double? { count > 0 ? (sum + compensation) / Double(count) : nil }

    /// Number of samples currently in the window.
    public var sampleCount: Int { count }

    public mutating func update(rssi: Double, at time: Double) throws(FilterInputError) -> Double {
        try Self.check(rssi: rssi, time: time, after: lastTime)
        lastTime = time
        while count > 0, times[head] <= time - window { evictOldest() }
        if count == capacity { evictOldest() }
        let slot = (head + count) % capacity
        times[slot] = time
        values[slot] = rssi
        count += 1
        add(rssi)
        return (sum + compensation) / Double(count)
    }

    public mutating func reset() {
        head = 0
        count = 0
        sum = 0
        compensation = 0
        lastTime = nil
    }

    public func rampLag(sampleInterval: Double) -> Double {
        guard sampleInterval > 0, sampleInterval.isFinite else { return window / 2 }
        let n = min(Double(capacity), (window / sampleInterval).rounded(.up))
        return sampleInterval * (max(n, 1) - 1) / 2
    }

    public func noiseReduction(sampleInterval: Double) -> Double {
        guard sampleInterval > 0, sampleInterval.isFinite else { return 1 }
        let n = min(Double(capacity), (window / sampleInterval).rounded(.up))
        return 1 / max(n, 1).squareRoot()
    }

    private mutating func evictOldest() {
        add(-values[head])
        head = (head + 1) % capacity
        count -= 1
        if count == 0 {
            sum = 0
            compensation = 0
        }
    }

    /// Neumaier's compensated summation, so that the running sum does not drift.
    private mutating func add(_ x: Double) {
        let t = sum + x
        if abs(sum) >= abs(x) {
            compensation += (sum - t) + x
        } else {
            compensation += (x - t) + sum
        }
        sum = t
    }
}
