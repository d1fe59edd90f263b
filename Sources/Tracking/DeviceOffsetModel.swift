/// The receiving device's RSSI offset Δ (dB): how much higher this phone reports every beacon
/// than the path-loss models say. Phone models differ by several dB and up to about ±10 dB, and
/// a plan's measured power was taken with some other receiver; Δ enters every sample alike,
///
///     RSSI = P₀ + Δ − 10 n log₁₀ d + shadowing + noise,
///
/// so with four or more beacons it is observable together with the position, and over a track it
/// is well determined. The ``AugmentedTracker`` carries it as a state: a random walk
/// (Δ̇ = white noise of density ``drift``) that starts from N(``initial``, ``priorSigma``²).
public struct DeviceOffsetModel: Sendable, Hashable, Codable {
    /// The offset the track starts from, dB. Default 0.
    public var initial: Double
    /// Standard deviation of the starting offset, dB, or nil to hold the offset fixed at
    /// ``initial`` (not estimated). Default 10: a phone and a plan that were never calibrated
    /// together (phone models differ by up to about ±10 dB; generic "measured power" values of
    /// beacon vendors are often further off). Use about 3 dB when the plan's values were
    /// calibrated with this kind of phone.
    public var priorSigma: Double?
    /// Spectral density of the offset's random walk, dB²/s: its standard deviation grows by
    /// √(drift · t) over t seconds without evidence. Default 0.005 (about 0.55 dB a minute): a
    /// phone moved from hand to pocket or bag loses several dB to the body within seconds to
    /// minutes, but at 0.05 (1.7 dB a minute) the offset followed the model's errors instead
    /// (Docs/Reference/Tracking.md, "offset drift").
    public var drift: Double

    /// An offset model; the defaults suit a phone of unknown make on an uncalibrated plan.
    public init(initial: Double = 0, priorSigma: Double? = 10, drift: Double = 0.005) {
        self.initial = initial
        self.priorSigma = priorSigma
        self.drift = drift
    }

    /// An offset known in advance and not estimated, dB.
    public static func fixed(_ offset: Double) -> DeviceOffsetModel {
        DeviceOffsetModel(initial: offset, priorSigma: nil, drift: 0)
    }

    /// Whether the offset is estimated (``priorSigma`` is set).
    public var isEstimated: Bool { priorSigma != nil }

    /// Whether `sigma` (dB) is a ``priorSigma`` the model accepts: finite, above 0 and at most
    /// 60 dB (the range of ``validate()``).
    public static func isValidPriorSigma(_ sigma: Double) -> Bool { sigma.isFinite && sigma > 0 && sigma <= 60 }

    /// Throws `invalidConfiguration` naming the first value out of range.
    public func validate() throws(TrackingError) {
        guard initial.isFinite, abs(initial) <= 60 else {
            throw .invalidConfiguration(field: "deviceOffset.initial", value: initial)
        }
        if let priorSigma, !Self.isValidPriorSigma(priorSigma) {
            throw .invalidConfiguration(field: "deviceOffset.priorSigma", value: priorSigma)
        }
        guard drift.isFinite, drift >= 0, drift <= 100 else {
            throw .invalidConfiguration(field: "deviceOffset.drift", value: drift)
        }
    }
}
