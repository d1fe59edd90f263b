/// Values a plan applies where a beacon does not give its own.
public struct PlanDefaults: Sendable, Hashable {
    /// RSSI at 1 m, dBm (default −59, a common iBeacon calibration).
    public var measuredPower: Double
    /// Log-distance path-loss exponent (default 2, free space).
    public var pathLossExponent: Double
    /// Height of the phone above the floor used by planar (2D) solving, metres (default 1.2).
    public var receiverHeight: Double

    /// Defaults: `measuredPower` in dBm at 1 m, `pathLossExponent` dimensionless,
    /// `receiverHeight` in metres above the floor.
    public init(measuredPower: Double = -59, pathLossExponent: Double = 2, receiverHeight: Double = 1.2) {
        self.measuredPower = measuredPower
        self.pathLossExponent = pathLossExponent
        self.receiverHeight = receiverHeight
    }
}
