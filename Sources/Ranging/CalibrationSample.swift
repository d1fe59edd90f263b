import BeaconModel

/// One calibration measurement: an RSSI observed at a known distance from a beacon.
public struct CalibrationSample: Sendable, Hashable, Codable {
    /// Distance between transmitter and receiver, metres (> 0).
    public var distance: Double
    /// Observed RSSI, dBm (a single reading or a mean of readings).
    public var rssi: Double
    /// The beacon measured, when the samples name beacons; nil for an anonymous sample.
    public var beacon: BeaconIdentity?

    /// A sample at `distance` metres with `rssi` dBm, optionally of `beacon`.
    public init(distance: Double, rssi: Double, beacon: BeaconIdentity? = nil) {
        self.distance = distance
        self.rssi = rssi
        self.beacon = beacon
    }
}
