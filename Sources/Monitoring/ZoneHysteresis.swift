import BeaconModel

/// The zone a stream of positions is in, with the same hysteresis as zone regions
/// (``Hysteresis/PositionRule``), so that a report's zone and the zone events agree and a
/// position near a boundary does not flap between two zones.
///
/// Each zone of the floor keeps a state as a zone region of ``RegionMonitor`` would (enter at
/// ``Hysteresis/PositionRule/enterMargin`` inside, leave after
/// ``Hysteresis/PositionRule/exitDwell`` at ``Hysteresis/PositionRule/exitMargin`` outside,
/// accuracy-weighted); the first position with a usable accuracy on a floor decides every zone
/// of that floor (the zone containing it is satisfied, the others not). The zone reported is
/// the current one while it is satisfied; otherwise the deepest satisfied zone; otherwise (in
/// the short gap after leaving one zone and before entering the next by the margins) the zone
/// containing the position. Moving from zone A to the adjacent zone B thus reports A until A is
/// left by the exit rule, then B.
public struct ZoneHysteresis: Sendable, Hashable {
    /// The rule, as for zone regions.
    public var rule: Hysteresis.PositionRule
    private var level: Int?
    private var states: [String: ZoneState] = [:]
    private var current: String?

    private struct ZoneState: Sendable, Hashable {
        var state = MonitorState.unknown
        var evidence = PositionEvidence()
    }

    /// A tracker of the zone with `rule` (the defaults of zone regions unless given).
    public init(rule: Hysteresis.PositionRule = Hysteresis.PositionRule()) {
        self.rule = rule
    }

    /// Takes the position at `time` (seconds) on `floor` with its 1-sigma `accuracy` (metres)
    /// and returns the zone id to report, or nil.
    public mutating func update(time: Double, position: Point2D, accuracy: Double, floor: Floor) -> String? {
        if level != floor.level {
            level = floor.level
            states = [:]
            current = nil
        }
        var deepest: (id: String, depth: Double)?
        var containing: String?
        for zone in floor.zones {
            let depth = ZoneIndex.depth(of: position, in: zone.polygon)
            var zoneState = states[zone.id] ?? ZoneState()
            if zoneState.state == .unknown {
                // The first usable position decides every zone of the floor at once.
                if accuracy.isFinite, accuracy <= rule.maximumAccuracy {
                    zoneState.state = depth >= 0 ? .satisfied : .unsatisfied
                }
            } else if let next = zoneState.evidence.observe(
                time: time, depth: depth, accuracy: accuracy,
                state: zoneState.state, rule: rule)
            {
                zoneState.state = next
            }
            states[zone.id] = zoneState
            if zoneState.state == .satisfied, depth > (deepest?.depth ?? -.infinity) { deepest = (zone.id, depth) }
            if containing == nil, depth >= 0 { containing = zone.id }
        }
        if let current, states[current]?.state == .satisfied { return current }
        if let deepest {
            current = deepest.id
            return deepest.id
        }
        current = nil
        return containing
    }
}
