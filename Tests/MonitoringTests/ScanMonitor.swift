import BeaconModel

@testable import Monitoring

/// The monitor as it was before regions were indexed: every input walks every region. Kept as
/// the oracle the indexed ``RegionMonitor`` must agree with event for event.
struct ScanMonitor: Sendable {
    /// The plan that zone conditions and plausibility checks refer to.
    let plan: FloorPlan
    /// The hysteresis of regions that do not carry their own.
    private(set) var hysteresis: Hysteresis
    /// The plausibility check of beacon entries.
    var plausibility: PlausibilityRule
    /// Beacons that the positioning engine has set apart as inconsistent; entries they cause are
    /// flagged ``PlausibilityFlag/setApart``.
    var setApartBeacons: Set<BeaconIdentity> = []
    /// The latest input time seen, seconds; nil before any input.
    var now: Double?
    /// The latest usable position, if any.
    var lastPosition: PositionObservation?

    var entries: [String: RegionEntry] = [:]
    /// Identifiers in insertion order.
    var insertionOrder: [String] = []
    /// Identifiers with every parent before its children (stable in insertion order otherwise).
    var evaluationOrder: [String] = []
    private let zones: ZoneIndex

    /// A monitor without regions.
    /// - Throws: ``MonitorError/invalidHysteresis(path:detail:)`` for a setting out of range.
    init(
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
    var identifiers: [String] { insertionOrder }

    /// The record of the region `identifier`, if monitored.
    func record(for identifier: String) -> MonitorRecord? { entries[identifier]?.record }

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
    mutating func add(
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
        if entries[identifier] == nil { insertionOrder.append(identifier) }
        entries[identifier] = entry
        rebuildEvaluationOrder()
    }

    /// Stops monitoring `identifier` and every region nested in it.
    /// - Returns: the identifiers removed (none when `identifier` is not monitored).
    @discardableResult
    mutating func remove(_ identifier: String) -> [String] {
        guard entries[identifier] != nil else { return [] }
        var removed: Set<String> = [identifier]
        var grew = true
        while grew {
            grew = false
            for (id, entry) in entries where !removed.contains(id) {
                if let parent = entry.record.parent, removed.contains(parent) {
                    removed.insert(id)
                    grew = true
                }
            }
        }
        for id in removed { entries[id] = nil }
        insertionOrder.removeAll { removed.contains($0) }
        rebuildEvaluationOrder()
        return removed.sorted()
    }

    // MARK: Inputs

    /// Feeds one beacon sighting.
    /// - Returns: the events it causes (beacon exits that fell due before it first), in date order.
    mutating func observe(_ sighting: BeaconSighting) -> [MonitorEvent] {
        guard sighting.time.isFinite, sighting.rssi.isFinite else { return [] }
        var events = advance(to: sighting.time)
        for id in evaluationOrder {
            guard var entry = entries[id], case .beacon(let condition) = entry.record.condition,
                condition.matches(sighting.identity), isArmed(entry)
            else { continue }
            let rule = rule(of: entry).beacon
            let entered = entry.beacon.observe(time: sighting.time, rssi: sighting.rssi, rule: rule)
            entries[id] = entry
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
    mutating func observe(_ observation: PositionObservation) -> [MonitorEvent] {
        guard observation.time.isFinite, observation.position.x.isFinite, observation.position.y.isFinite,
            observation.accuracy.isFinite
        else { return [] }
        var events = advance(to: observation.time)
        if observation.time >= (lastPosition?.time ?? -.infinity) { lastPosition = observation }
        for id in evaluationOrder {
            guard var entry = entries[id], !entry.record.condition.isBeaconCondition, isArmed(entry) else { continue }
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
    mutating func advance(to time: Double) -> [MonitorEvent] {
        guard time.isFinite else { return [] }
        now = max(now ?? time, time)
        for id in evaluationOrder where entries[id]!.beacon.since == nil && isArmed(entries[id]!) {
            entries[id]!.beacon.since = time
        }
        var events: [MonitorEvent] = []
        while true {
            var due: (id: String, date: Double)?
            for id in evaluationOrder {
                let entry = entries[id]!
                guard entry.record.condition.isBeaconCondition, isArmed(entry),
                    let deadline = entry.beacon.exitDeadline(state: entry.record.state, rule: rule(of: entry).beacon),
                    deadline <= time
                else { continue }
                if due == nil || deadline < due!.date { due = (id, deadline) }
            }
            guard let due else { break }
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
        // Children: armed afresh when this one is satisfied, disarmed (and left) otherwise.
        for child in evaluationOrder where entries[child]?.record.parent == id {
            if state == .satisfied {
                entries[child]!.beacon = BeaconEvidence(since: date)
                entries[child]!.position = PositionEvidence()
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
    }

    // MARK: Helpers

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
    }
}
