/// One output position of the pipeline: where a device was at a time, how sure we are, and how
/// the answer was reached. This is a row of the fixes CSV of `FORMATS.md`.
public struct PositionReport: Sendable, Hashable {
    /// How a report was produced.
    public enum Source: String, Sendable, Hashable, Codable {
        /// The tracker's estimate after the epoch's samples (the default pipeline).
        case tracked
        /// The Rauch–Tung–Striebel smoothed estimate (batch only).
        case smoothed
        /// A snapshot fix from this epoch's samples alone (no tracker).
        case fix
        /// A fallback: too few beacons or degenerate geometry; the accuracy says how little is known.
        case fallback
        /// The tracker coasted: no usable sample this epoch, the estimate is a prediction.
        case predicted
    }

    /// Time the position stands for, seconds (same epoch as the input samples).
    public var timestamp: Double
    /// The device, when the input names devices.
    public var device: String?
    /// Position in the building frame, metres (z absolute: floor elevation + receiver height in 2D).
    public var position: Point3D
    /// The floor level.
    public var level: Int
    /// 1-sigma horizontal error radius, metres: sqrt(var x + var y).
    public var accuracy: Double
    /// The zone of the floor containing the position, if any.
    public var zone: String?
    /// How the report was produced.
    public var source: Source
    /// Beacons whose samples contributed in this epoch.
    public var beaconCount: Int
    /// The device offset Δ in force for this report, dB: how much higher this device reads every
    /// beacon than the path-loss models say (estimated by the tracker, see
    /// ``PositioningEngine/Configuration/deviceOffset``). Nil where no offset applies.
    public var deviceOffset: Double?

    public init(timestamp: Double, device: String?, position: Point3D, level: Int, accuracy: Double,
                zone: String?, source: Source, beaconCount: Int, deviceOffset: Double? = nil) {
        self.timestamp = timestamp
        self.device = device
        self.position = position
        self.level = level
        self.accuracy = accuracy
        self.zone = zone
        self.source = source
        self.beaconCount = beaconCount
        self.deviceOffset = deviceOffset
    }
}
