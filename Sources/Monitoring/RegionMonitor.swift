import BeaconModel

/// The monitoring state machine: regions (beacon conditions, circles, zones) whose states are
/// decided from beacon sightings and tracked positions, with hysteresis, returning the events
/// each input causes. It has the shape of `CLMonitor` — ``add(_:identifier:assuming:parent:hysteresis:)``,
/// ``remove(_:)``, ``identifiers``, ``record(for:)`` — as a synchronous `Sendable` value.
///
/// Time comes only from the inputs: a sighting's or a position's `time`, or
/// ``advance(to:)``. Replaying a file is therefore deterministic, and tests never sleep.
/// Inputs should come in time order; an input older than the monitor's time is still used, but
/// cannot make beacon exits that are already due happen later.
///
/// - Beacon conditions enter on ``Hysteresis/BeaconRule/enterCount`` matching samples within
///   ``Hysteresis/BeaconRule/enterWindow`` and leave at the last matching sample plus
///   ``Hysteresis/BeaconRule/exitDelay`` (the event is dated then, whichever later input
///   reveals it).
/// - Circles and zones follow ``Hysteresis/PositionRule`` on the signed depth of each position.
/// - A region with a parent is armed only while the parent is satisfied; when the parent
///   becomes unsatisfied, a satisfied child becomes unsatisfied at the same time and its
///   evidence starts afresh.
/// - A beacon entry is checked for plausibility against the latest position (``PlausibilityRule``);
///   an implausible entry still arrives, with ``MonitorEvent/flag`` set.
///
/// For apps that want the events as an `AsyncSequence`, ``AsyncRegionMonitor`` wraps this value
/// in an actor.
public struct RegionMonitor: Sendable {
    /// The plan that zone conditions and plausibility checks refer to.
    public let plan: FloorPlan
    /// The hysteresis of regions that do not carry their own.
    public private(set) var hysteresis: Hysteresis
    /// The plausibility check of beacon entries.
    public var plausibility: PlausibilityRule
    /// Beacons that the positioning engine has set apart as inconsistent; entries they cause are
    /// flagged ``PlausibilityFlag/setApart``.
    public var setApartBeacons: Set<BeaconIdentity> = []
    /// The latest input time seen, seconds; nil before any input.
    public internal(set) var now: Double?
    /// The latest usable position, if any.
    public internal(set) var lastPosition: PositionObservation?
    /// The time of the first input (nil before it): when the top-level beacon regions added
    /// before it started counting silence. Those that are unsatisfied are not touched then;
    /// their evidence takes this time as its start when it is first needed (``armed(_:)``).
    var startTime: Double?

    var entries = RegionEntries()
    /// Identifiers in insertion order.
    var insertionOrder: [String] = []
    /// Identifiers with every parent before its children (stable in insertion order otherwise).
    var evaluationOrder: [String] = []
    private let zones: ZoneIndex
    /// The regions indexed by identity, place and order (see ``RegionIndex``).
    var index = RegionIndex()

    /// A monitor without regions.
    /// - Throws: ``MonitorError/invalidHysteresis(path:detail:)`` for a setting out of range.
    public init(
        plan: FloorPlan, hysteresis: Hysteresis = Hysteresis(),
        plausibility: PlausibilityRule = PlausibilityRule()
    ) throws(MonitorError) {
        if let problem = hysteresis.problem { throw .invalidHysteresis(path: "hysteresis", detail: problem) }
        self.plan = plan
        self.hysteresis = hysteresis
        self.plausibility = plausibility
        self.zones = ZoneIndex(plan: plan)
    }

    /// The identifiers of the monitored regions, in the order they were added.
    public var identifiers: [String] { insertionOrder }

    /// The record of the region `identifier`, if monitored.
    public func record(for identifier: String) -> MonitorRecord? { entries[identifier]?.record }

    /// Starts monitoring `condition` as `identifier`. Adding an identifier that exists replaces
    /// its condition and record, as on iOS (its children keep it as their parent).
    /// - Parameters:
    ///   - assuming: the initial state, corrected by evidence: an assumed `satisfied` beacon
    ///     region leaves after the exit delay without samples; an assumed `satisfied` circle
    ///     leaves by the usual exit rule.
    ///   - parent: a region that must be satisfied for this one to be armed.
    ///   - hysteresis: this region's own rules; nil: the monitor's.
    /// - Throws: ``MonitorError`` for an empty identifier, a zone not in the plan, a bad radius
    ///   or centre, a missing parent, a parent cycle, or a hysteresis setting out of range.
    public mutating func add(
        _ condition: MonitorCondition, identifier: String,
        assuming state: MonitorState = .unknown, parent: String? = nil,
        hysteresis: Hysteresis? = nil
    ) throws(MonitorError) {
        try validate(condition, identifier: identifier, parent: parent, hysteresis: hysteresis, path: identifier)
        var entry = RegionEntry(
            record: MonitorRecord(
                condition: condition, parent: parent, hysteresis: hysteresis,
                lastEvent: MonitorEvent(identifier: identifier, state: state, date: now ?? 0), visits: VisitLog()))
        if state == .satisfied, let now { entry.record.visits.enter(at: now) }
        entry.beacon.since = now
        if entries[identifier] == nil {
            // A new region comes after every other in the evaluation order (its parent exists).
            insertionOrder.append(identifier)
            entries.define(identifier, as: entry)
            evaluationOrder.append(identifier)
            index.append(identifier, entry: entry, rank: evaluationOrder.count - 1, rule: rule(of: entry), zones: zones)
            scheduleDeadline(of: identifier)
        } else {
            entries.define(identifier, as: entry)
            rebuildEvaluationOrder()
        }
    }

    /// Stops monitoring `identifier` and every region nested in it.
    /// - Returns: the identifiers removed (none when `identifier` is not monitored).
    @discardableResult
    public mutating func remove(_ identifier: String) -> [String] {
        guard entries[identifier] != nil else { return [] }
        var removed: Set<String> = [identifier]
        var queue = [identifier]
        while let id = queue.popLast() {
            for child in index.children[id] ?? [] where removed.insert(child).inserted { queue.append(child) }
        }
        for id in removed { entries[id] = nil }
        insertionOrder.removeAll { removed.contains($0) }
        rebuildEvaluationOrder()
        return removed.sorted()
    }

    // MARK: Inputs

    /// Feeds one beacon sighting.
    /// - Returns: the events it causes (beacon exits that fell due before it first), in date order.
    public mutating func observe(_ sighting: BeaconSighting) -> [MonitorEvent] {
        guard sighting.time.isFinite, sighting.rssi.isFinite else { return [] }
        var events = advance(to: sighting.time)
        for id in index.beaconCandidates(of: sighting.identity) {
            guard var entry = entries[id].map(armed), isArmed(entry) else { continue }
            let rule = rule(of: entry).beacon
            let entered = entry.beacon.observe(time: sighting.time, rssi: sighting.rssi, rule: rule)
            entries[id] = entry
            scheduleDeadline(of: id)
            if entered && entry.record.state != .satisfied {
                let flag = plausibility.check(
                    identity: sighting.identity, rssi: sighting.rssi, time: sighting.time,
                    position: lastPosition, setApart: setApartBeacons, plan: plan)
                transition(
                    id, to: .satisfied, at: sighting.time, refinement: sighting.identity, flag: flag, into: &events)
            }
        }
        return events
    }

    /// Feeds one tracked position. Positions whose accuracy is not finite are ignored.
    /// - Returns: the events it causes, in date order.
    public mutating func observe(_ observation: PositionObservation) -> [MonitorEvent] {
        guard observation.time.isFinite, observation.position.x.isFinite, observation.position.y.isFinite,
            observation.accuracy.isFinite
        else { return [] }
        var events = advance(to: observation.time)
        if observation.time >= (lastPosition?.time ?? -.infinity) { lastPosition = observation }
        let decided = observation.decidesZones == true
        if decided {
            // Zone conditions follow the decision: satisfied exactly while it names the zone. The
            // zone left is left before the zone entered is entered, so that no reader of the
            // events ever holds two.
            for entering in [false, true] {
                for rank in index.zoneRanks {
                    let id = evaluationOrder[rank]
                    guard let entry = entries[id], isArmed(entry), case .zone(let zone) = entry.record.condition
                    else { continue }
                    let inside = observation.zone == zone && zones.contains(zone, level: observation.level)
                    let next: MonitorState = inside ? .satisfied : .unsatisfied
                    if next != entry.record.state && (next == .satisfied) == entering {
                        transition(id, to: next, at: observation.time, into: &events)
                    }
                }
            }
        }
        for rank in index.positionCandidates(of: observation, zones: zones) {
            let id = evaluationOrder[rank]
            guard var entry = entries[id], isArmed(entry) else { continue }
            if decided, case .zone = entry.record.condition { continue }
            let depth = self.depth(of: observation, in: entry.record.condition)
            let next = entry.position.observe(
                time: observation.time, depth: depth, accuracy: observation.accuracy,
                state: entry.record.state, rule: rule(of: entry).position)
            entries[id] = entry
            if let next { transition(id, to: next, at: observation.time, into: &events) }
        }
        return events
    }

    /// Lets time pass to `time` without input: beacon regions whose exit delay has run out
    /// become unsatisfied (dated when it ran out).
    /// - Returns: those events, in date order.
    public mutating func advance(to time: Double) -> [MonitorEvent] {
        guard time.isFinite else { return [] }
        now = max(now ?? time, time)
        if startTime == nil { startTime = time }
        if !index.pendingSince.isEmpty {
            for id in index.pendingSince {
                guard let entry = entries[id], entry.beacon.since == nil else {
                    index.pendingSince.remove(id)
                    continue
                }
                guard isArmed(entry) else { continue }
                entries[id]!.beacon.since = time
                index.pendingSince.remove(id)
                scheduleDeadline(of: id)
            }
        }
        var events: [MonitorEvent] = []
        while let due = index.deadlines.first, due.date <= time {
            _ = index.deadlines.removeFirst()
            guard let entry = entries[due.id], index.rank[due.id] == due.rank, isArmed(entry),
                let deadline = entry.beacon.exitDeadline(state: entry.record.state, rule: rule(of: entry).beacon),
                deadline == due.date
            else { continue }
            transition(due.id, to: .unsatisfied, at: due.date, into: &events)
        }
        return events
    }

    // MARK: Transitions

    private mutating func transition(
        _ id: String, to state: MonitorState, at date: Double,
        refinement: BeaconIdentity? = nil, flag: PlausibilityFlag? = nil,
        into events: inout [MonitorEvent]
    ) {
        guard var entry = entries[id], entry.record.state != state else { return }
        let event = MonitorEvent(identifier: id, state: state, date: date, refinement: refinement, flag: flag)
        if state == .satisfied {
            entry.record.visits.enter(at: date)
        } else if entry.record.state == .satisfied {
            entry.record.visits.exit(at: date)
        }
        if state == .unsatisfied { entry.beacon.entryTimes.removeAll() }
        entry.record.lastEvent = event
        entries[id] = entry
        events.append(event)
        if !entry.record.condition.isBeaconCondition {
            if let rank = index.rank[id] {
                if state == .unsatisfied { index.live.remove(rank) } else { index.live.insert(rank) }
            }
        }
        scheduleDeadline(of: id)
        // Children: armed afresh when this one is satisfied, disarmed (and left) otherwise.
        for child in index.children[id] ?? [] {
            if state == .satisfied {
                entries[child]!.beacon = BeaconEvidence(since: date)
                entries[child]!.position = PositionEvidence()
                scheduleDeadline(of: child)
            } else {
                transitionDisarmed(child, at: date, into: &events)
            }
        }
    }

    private mutating func transitionDisarmed(_ id: String, at date: Double, into events: inout [MonitorEvent]) {
        if entries[id]!.record.state == .satisfied {
            transition(id, to: .unsatisfied, at: date, into: &events)
        }
        entries[id]!.beacon = BeaconEvidence()
        entries[id]!.position = PositionEvidence()
        index.pendingSince.insert(id)
    }

    /// Queues the exit deadline of beacon region `id`, if it has one now.
    private mutating func scheduleDeadline(of id: String) {
        guard let entry = entries[id], entry.record.condition.isBeaconCondition, let rank = index.rank[id],
            let deadline = entry.beacon.exitDeadline(state: entry.record.state, rule: rule(of: entry).beacon)
        else { return }
        index.deadlines.insert(.init(date: deadline, rank: rank, id: id))
    }

    // MARK: Helpers

    /// `entry` with the start of its silence filled in when it is a top-level beacon region
    /// that has counted silence since the first input without being touched (see
    /// ``startTime``): what arming it at the first input would have stored.
    func armed(_ entry: RegionEntry) -> RegionEntry {
        guard entry.beacon.since == nil, entry.record.parent == nil, entry.record.condition.isBeaconCondition,
            let startTime
        else { return entry }
        var entry = entry
        entry.beacon.since = startTime
        return entry
    }

    func isArmed(_ entry: RegionEntry) -> Bool {
        guard let parent = entry.record.parent else { return true }
        return entries[parent]?.record.state == .satisfied
    }

    func rule(of entry: RegionEntry) -> Hysteresis { entry.record.hysteresis ?? hysteresis }

    /// Signed depth of the observation in a circle or zone, metres (−∞ on another floor, or for a
    /// zone this floor does not have).
    func depth(of observation: PositionObservation, in condition: MonitorCondition) -> Double {
        switch condition {
        case .beacon: return -.infinity
        case .circle(let circle):
            return circle.level == observation.level ? circle.depth(of: observation.position) : -.infinity
        case .zone(let id):
            return zones.depth(of: observation.position, inZone: id, level: observation.level)
        }
    }

    func validate(
        _ condition: MonitorCondition, identifier: String, parent: String?,
        hysteresis: Hysteresis?, path: String
    ) throws(MonitorError) {
        guard !identifier.isEmpty else { throw .emptyIdentifier(path: path) }
        switch condition {
        case .beacon: break
        case .circle(let circle):
            guard circle.center.x.isFinite else { throw .nonFinite(path: path, value: "\(circle.center.x)") }
            guard circle.center.y.isFinite else { throw .nonFinite(path: path, value: "\(circle.center.y)") }
            guard circle.radius.isFinite, circle.radius > 0 else {
                throw .invalidRadius(path: path, value: "\(circle.radius)")
            }
            guard zones.hasLevel(circle.level) else {
                throw .unknownLevel(path: path, id: identifier, level: circle.level, levels: zones.levels)
            }
        case .zone(let id):
            guard zones.contains(id) else { throw .unknownZone(path: path, id: id) }
        }
        if let problem = hysteresis?.problem { throw .invalidHysteresis(path: path, detail: problem) }
        if let parent {
            guard parent == identifier || entries[parent] != nil else {
                throw .missingParent(path: path, parent: parent)
            }
            var chain = [identifier]
            var next: String? = parent
            while let current = next {
                chain.append(current)
                if current == identifier { throw .parentCycle(path: path, cycle: chain) }
                next = entries[current]?.record.parent
                if chain.count > entries.count + 2 { break }
            }
        }
    }

    mutating func rebuildEvaluationOrder() {
        var placed: Set<String> = []
        var order: [String] = []
        func place(_ id: String) {
            guard !placed.contains(id), let entry = entries[id] else { return }
            placed.insert(id)
            if let parent = entry.record.parent { place(parent) }
            order.append(id)
        }
        for id in insertionOrder { place(id) }
        evaluationOrder = order
        index = RegionIndex()
        for (rank, id) in order.enumerated() {
            index.append(id, entry: entries[id]!, rank: rank, rule: rule(of: entries[id]!), zones: zones)
        }
        for id in order { scheduleDeadline(of: id) }
    }
}

/// One region's record and evidence.
struct RegionEntry: Sendable, Hashable, Codable {
    var record: MonitorRecord
    var beacon = BeaconEvidence()
    var position = PositionEvidence()
}
