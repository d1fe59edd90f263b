import BeaconModel

/// One reading of one beacon, the input that decides beacon conditions.
public struct BeaconSighting: Sendable, Hashable, Codable {
    /// Time of the reading, seconds (any epoch; the monitor's only clock).
    public var time: Double
    /// The beacon heard.
    public var identity: BeaconIdentity
    /// Received signal strength, dBm.
    public var rssi: Double

    public init(time: Double, identity: BeaconIdentity, rssi: Double) {
        self.time = time
        self.identity = identity
        self.rssi = rssi
    }
}

/// One tracked position, the input that decides circle and zone conditions.
public struct PositionObservation: Sendable, Hashable, Codable {
    /// Time the position stands for, seconds.
    public var time: Double
    /// Position in the plan's frame, metres.
    public var position: Point2D
    /// The floor level.
    public var level: Int
    /// 1-sigma horizontal error radius, metres (sqrt(var x + var y)).
    public var accuracy: Double
    /// The zone the position's source decided the phone is in (nil: none), when
    /// ``decidesZones`` is true: the engine's estimate (`ZonePresence`), which zone conditions
    /// then follow exactly, so that a monitor holds at most one zone of a floor and agrees with
    /// the reports' `zone`. Ignored otherwise.
    public var zone: String?
    /// Whether ``zone`` is a decision that zone conditions follow (nil or false: they apply
    /// ``Hysteresis/PositionRule`` to the position, as for circles).
    public var decidesZones: Bool?

    public init(
        time: Double, position: Point2D, level: Int, accuracy: Double, zone: String? = nil, decidesZones: Bool? = nil
    ) {
        self.time = time
        self.position = position
        self.level = level
        self.accuracy = accuracy
        self.zone = zone
        self.decidesZones = decidesZones
    }
}
