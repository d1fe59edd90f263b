/// Values a plan applies where a beacon does not give its own.
public struct PlanDefaults: Sendable, Hashable {
    /// RSSI at 1 m, dBm (default −59, a common iBeacon calibration).
    public var measuredPower: Double
    /// Log-distance path-loss exponent (default 2, free space).
    public var pathLossExponent: Double
    /// Height of the phone above the floor used by planar (2D) solving, metres (default 1.2).
    public var receiverHeight: Double
    /// Loss through a wall that gives none of its own, dB; nil when the plan leaves it out:
    /// then `--self-calibrate` learns it from the traffic, and otherwise
    /// ``standardWallAttenuation`` applies.
    public var wallAttenuation: Double?

    /// The loss through one interior wall when neither the wall nor the plan's defaults give
    /// one and none was learned, dB: 5 dB, between the COST 231 multi-wall model's light
    /// (3.4 dB) and heavy (6.9 dB) internal walls (COST Action 231, *Digital mobile radio
    /// towards future generation systems*, final report, 1999, §4.7), which fall in the
    /// 3–7 dB that drywall and brick partitions measure at 2.4 GHz.
    public static let standardWallAttenuation = 5.0

    /// The loss through `wall`, dB: its own, the plan's default, the `learned` one (for walls
    /// the plan leaves without a loss), or ``standardWallAttenuation``.
    public func attenuation(of wall: Wall, learned: Double? = nil) -> Double {
        wall.attenuation ?? wallAttenuation ?? learned ?? PlanDefaults.standardWallAttenuation
    }

    /// `floor` with every wall's attenuation filled in by ``attenuation(of:learned:)``.
    public func resolvingWalls(of floor: Floor, learned: Double? = nil) -> Floor {
        var floor = floor
        for w in floor.walls.indices { floor.walls[w].attenuation = attenuation(of: floor.walls[w], learned: learned) }
        return floor
    }

    /// Defaults: `measuredPower` in dBm at 1 m, `pathLossExponent` dimensionless,
    /// `receiverHeight` in metres above the floor, `wallAttenuation` in dB per wall.
    public init(
        measuredPower: Double = -59, pathLossExponent: Double = 2, receiverHeight: Double = 1.2,
        wallAttenuation: Double? = nil
    ) {
        self.measuredPower = measuredPower
        self.pathLossExponent = pathLossExponent
        self.receiverHeight = receiverHeight
        self.wallAttenuation = wallAttenuation
    }
}
