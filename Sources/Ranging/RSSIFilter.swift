/// A smoother of one beacon's RSSI stream, fed one sample at a time at irregular times.
///
/// Conforming filters cost O(1) per sample (amortised for the windowed mean), never produce
/// NaN, and refuse with ``FilterInputError`` (leaving their state untouched) a sample whose time
/// goes backwards or whose value or time is not finite. Samples with equal times are allowed.
/// Keep one filter per beacon (and per device).
public protocol RSSIFilter: Sendable {
    /// Feeds `rssi` (dBm) observed at `time` (seconds, any epoch) and returns the filtered RSSI.
    mutating func update(rssi: Double, at time: Double) throws(FilterInputError) -> Double
    /// The filtered RSSI after the last sample, dBm, or nil before the first.
    var value: Double? { get }
    /// Forgets every sample.
    mutating func reset()
    /// The delay, in seconds, by which the output follows a linear RSSI ramp sampled every
    /// `sampleInterval` seconds, once settled. Multiply by the walking speed (1.2 m/s) for
    /// the lag in metres. Never NaN; a non-positive interval gives the filter's nominal lag
    /// (window/2, τ) or +∞ for the Kalman filter, whose gain then vanishes.
    func rampLag(sampleInterval: Double) -> Double
    /// Output standard deviation over input standard deviation for white noise sampled every
    /// `sampleInterval` seconds, once settled (1 = no smoothing).
    func noiseReduction(sampleInterval: Double) -> Double
}

extension RSSIFilter {
    /// Validates a sample against the previous time; shared by the conforming filters.
    @inline(__always)
    static func check(rssi: Double, time: Double, after last: Double?) throws(FilterInputError) {
        guard time.isFinite else { throw .nonFiniteTime(time) }
        guard rssi.isFinite else { throw .invalidValue(rssi) }
        if let last, time < last { throw .timeWentBackwards(previous: last, current: time) }
    }
}
