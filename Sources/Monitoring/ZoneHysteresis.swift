import BeaconModel

/// The zone a stream of positions is in by margins (the engine's rule before ``ZonePresence``,
/// which the engine now uses), with the same hysteresis as zone regions
/// (``Hysteresis/PositionRule``), so that a report's zone and the zone events agree and a
/// position near a boundary does not flap between two zones.
///
/// Each zone of the floor keeps a state as a zone region of ``RegionMonitor`` would (enter at
/// ``Hysteresis/PositionRule/enterMargin`` inside, leave after
/// ``Hysteresis/PositionRule/exitDwell`` at ``Hysteresis/PositionRule/exitMargin`` outside,
/// accuracy-weighted), from the unknown state on exactly as a zone region does, so that the
/// satisfied zones are those a monitor fed the same positions holds satisfied. The zone reported
/// is the current one while it is satisfied; otherwise the deepest satisfied zone; otherwise (before
/// any zone is entered by the margins, or in the short gap after leaving one and before entering
/// the next) the zone reported last while the rule has not decided it, else the zone containing
/// the position. Moving from zone A to the adjacent zone B thus reports A until A is
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
            // Exactly the zone region's rule, from the unknown state on too, so that the
            // satisfied zones are the ones a monitor fed the same reports holds satisfied.
            if let next = zoneState.evidence.observe(
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
        // No zone entered by the margins yet: keep the zone reported last while the rule has not
        // left it (so that pacing on an edge does not flap), otherwise the zone containing the
        // position.
        if let current, states[current]?.state == .unknown { return current }
        current = containing
        return containing
    }
}
