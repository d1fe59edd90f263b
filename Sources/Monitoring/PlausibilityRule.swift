import BeaconModel
import Ranging

/// When a beacon entry is implausible given the tracked position (a spoofed beacon, or one
/// moved away from where the plan puts it).
///
/// An entry whose concrete beacon is in the plan is checked against the latest tracked position
/// if that is at most ``maximumPositionAge`` old: the beacon on another floor is
/// ``PlausibilityFlag/otherFloor``; a beacon whose RSSI says it is at most
/// d_max = 10^((P₀ − RSSI + z σ) / (10 n)) metres away (the log-distance model with z sigma of
/// shadowing on the weak side) while the position, moved ``z`` accuracies towards it, is still
/// farther is ``PlausibilityFlag/outOfRange``. A beacon that the positioning engine's
/// consistency watch has set apart is ``PlausibilityFlag/setApart``.
public struct PlausibilityRule: Sendable, Hashable, Codable {
    /// Oldest position used for the check, seconds (default 10).
    public var maximumPositionAge: Double
    /// Shadowing sigma of one sample, dB (default 4, as the engine's default).
    public var sigma: Double
    /// How many sigmas (of RSSI and of the position) the evidence must exceed (default 4: the
    /// samples heard far away are the few with the most positive shadowing, so 3 sigma is
    /// exceeded on clean walks).
    public var z: Double

    public init(maximumPositionAge: Double = 10, sigma: Double = PathLossModel.defaultSigma, z: Double = 4) {
        self.maximumPositionAge = maximumPositionAge
        self.sigma = sigma
        self.z = z
    }

    /// The flag for an entry caused by `identity` heard at `rssi` dBm at `time`, given the latest
    /// `position` and the beacons set apart; nil when plausible or when it cannot be checked.
    func check(
        identity: BeaconIdentity, rssi: Double, time: Double, position: PositionObservation?,
        setApart: Set<BeaconIdentity>, plan: FloorPlan
    ) -> PlausibilityFlag? {
        if setApart.contains(identity) { return .setApart }
        guard let position, abs(time - position.time) <= maximumPositionAge,
            position.accuracy.isFinite, let beacon = plan.resolvedBeacon(identity)
        else { return nil }
        guard beacon.level == position.level else { return .otherFloor }
        let model = PathLossModel(beacon, sigma: sigma)
        let reach = model.distanceInterval(forRSSI: rssi, count: 1, z: z).upperBound
        let receiverZ = (plan.floor(level: position.level)?.elevation ?? 0) + plan.defaults.receiverHeight
        let planar = max(0, beacon.position.planar.distance(to: position.position) - z * position.accuracy)
        let dz = beacon.position.z - receiverZ
        return (planar * planar + dz * dz).squareRoot() > reach ? .outOfRange : nil
    }
}
