/// A beacon as placed on a floor of the plan.
///
/// `measuredPower` and `pathLossExponent` are optional so that a plan round-trips exactly:
/// nil means "take the plan's defaults" (see ``FloorPlan/resolvedBeacon(_:)``).
public struct Beacon: Sendable, Hashable {
    /// The advertised identity, unique within a plan.
    public var identity: BeaconIdentity
    /// Position: x and y in the building frame, z the height above its own floor, metres.
    public var position: Point3D
    /// RSSI at 1 m, dBm, or nil for the plan default.
    public var measuredPower: Double?
    /// Log-distance path-loss exponent (dimensionless), or nil for the plan default.
    public var pathLossExponent: Double?

    /// A placement: `position` in metres (z above the beacon's floor), `measuredPower` in dBm
    /// at 1 m and `pathLossExponent` dimensionless, each nil to take the plan's defaults.
    public init(
        identity: BeaconIdentity, position: Point3D,
        measuredPower: Double? = nil, pathLossExponent: Double? = nil
    ) {
        self.identity = identity
        self.position = position
        self.measuredPower = measuredPower
        self.pathLossExponent = pathLossExponent
    }
}

/// A beacon with everything resolved that a solver needs: its floor, its absolute position and
/// its path-loss parameters (the beacon's own or the plan's defaults).
public struct ResolvedBeacon: Sendable, Hashable {
    /// The advertised identity.
    public var identity: BeaconIdentity
    /// The level of the floor the beacon is on.
    public var level: Int
    /// Absolute position in the building frame, metres: z = floor elevation + height on floor.
    public var position: Point3D
    /// RSSI at 1 m, dBm.
    public var measuredPower: Double
    /// Log-distance path-loss exponent.
    public var pathLossExponent: Double

    /// A resolved beacon: absolute `position` in metres, `measuredPower` in dBm at 1 m,
    /// `pathLossExponent` dimensionless.
    public init(
        identity: BeaconIdentity, level: Int, position: Point3D,
        measuredPower: Double, pathLossExponent: Double
    ) {
        self.identity = identity
        self.level = level
        self.position = position
        self.measuredPower = measuredPower
        self.pathLossExponent = pathLossExponent
    }
}
