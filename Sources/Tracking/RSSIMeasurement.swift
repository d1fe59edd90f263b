import BeaconModel
import Ranging

/// One RSSI sample of one beacon at its own time: the input of the extended-Kalman update
/// ``KalmanTracker/update(_:)-(RSSIMeasurement)``.
public struct RSSIMeasurement: Sendable, Hashable, Codable {
    /// When the sample was received, seconds.
    public var time: Double
    /// The beacon's absolute position in the building frame, metres (z = floor elevation +
    /// height on the floor, as ``ResolvedBeacon/position`` gives it).
    public var beaconPosition: Point3D
    /// The beacon's path-loss model: P₀ (dBm at 1 m), exponent n and shadowing σ (dB), which is
    /// the measurement noise: R = σ².
    public var model: PathLossModel
    /// Received signal strength, dBm (negative).
    public var rssi: Double
    /// Any stable number that names the beacon (for example its index in the plan), or nil.
    /// The ``AugmentedTracker`` gives the samples of one key one shadowing-bias state; samples
    /// without a key are treated as independent. The ``KalmanTracker`` ignores it.
    public var beaconKey: Int?

    /// A sample from its parts: time in seconds, beacon position in metres, RSSI in dBm, and
    /// optionally a key naming the beacon (see ``beaconKey``).
    public init(time: Double, beaconPosition: Point3D, model: PathLossModel, rssi: Double, beaconKey: Int? = nil) {
        self.time = time
        self.beaconPosition = beaconPosition
        self.model = model
        self.rssi = rssi
        self.beaconKey = beaconKey
    }

    /// Throws unless the sample is finite, the RSSI negative and the model usable.
    func validate() throws(TrackingError) {
        guard time.isFinite else { throw .nonFiniteInput(field: "RSSIMeasurement.time") }
        try TrackingError.checkTime(time, "RSSIMeasurement.time")
        guard beaconPosition.x.isFinite, beaconPosition.y.isFinite, beaconPosition.z.isFinite else {
            throw .nonFiniteInput(field: "RSSIMeasurement.beaconPosition")
        }
        try TrackingError.checkCoordinate(beaconPosition.x, "RSSIMeasurement.beaconPosition.x")
        try TrackingError.checkCoordinate(beaconPosition.y, "RSSIMeasurement.beaconPosition.y")
        try TrackingError.checkCoordinate(beaconPosition.z, "RSSIMeasurement.beaconPosition.z")
        guard rssi.isFinite else { throw .nonFiniteInput(field: "RSSIMeasurement.rssi") }
        guard rssi < 0 else { throw .implausibleRSSI(rssi) }
        guard model.measuredPower.isFinite, model.exponent.isFinite, model.exponent > 0,
            model.sigma.isFinite, model.sigma > 0,
            // The path-loss model's arithmetic limits: beyond them the update's arithmetic under- or overflows.
            PathLossModel.measuredPowerRange.contains(model.measuredPower),
            PathLossModel.exponentRange.contains(model.exponent),
            PathLossModel.sigmaRange.contains(model.sigma)
        else {
            throw .invalidPathLossModel(model)
        }
    }
}
