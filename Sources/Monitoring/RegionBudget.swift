import BeaconModel

/// Which regions to hand to a platform that caps how many an app may monitor (iOS: 20), as the
/// user moves: the nearest K, parents before children, with a margin against churn.
///
/// At each ``update(position:monitor:)`` every eligible region gets a distance from the
/// position, metres: 0 while it is satisfied; for a circle, the distance to its rim; for a
/// zone, to its polygon; for a beacon condition, to the nearest matching beacon of the plan (0
/// when the plan has none, as for a site-wide UUID); plus ``levelPenalty`` per floor of
/// difference. A region with a parent is eligible only while its parent is satisfied and armed.
/// Regions already armed have their distance lowered by ``switchMargin`` (a newcomer must be
/// that much nearer to displace one), then the K smallest are armed; a child is taken only
/// after its parent, and never more than K are armed.
public struct RegionBudget: Sendable, Hashable {
    /// What to start and stop monitoring on the platform.
    public struct Change: Sendable, Hashable {
        /// Regions to start monitoring, parents first.
        public var start: [String]
        /// Regions to stop monitoring.
        public var stop: [String]
    }

    /// The most regions armed at once (K).
    public let capacity: Int
    /// How much nearer a newcomer must be to displace an armed region, metres (default 2).
    public var switchMargin: Double
    /// Distance added per floor of difference, metres (default 1000: other floors come last).
    public var levelPenalty: Double
    /// The armed regions, in priority order (parents before children).
    public private(set) var armed: [String] = []

    /// A budget of `capacity` regions (at least 1).
    public init(capacity: Int, switchMargin: Double = 2, levelPenalty: Double = 1000) {
        self.capacity = max(1, capacity)
        self.switchMargin = switchMargin
        self.levelPenalty = levelPenalty
    }

    /// Chooses the regions to arm for `position` among `monitor`'s regions.
    /// - Returns: the regions to start and to stop.
    public mutating func update(position: PositionObservation, monitor: RegionMonitor) -> Change {
        let current = Set(armed)
        var candidates: [(id: String, score: Double, order: Int)] = []
        for (order, id) in monitor.evaluationOrder.enumerated() {
            guard let record = monitor.record(for: id) else { continue }
            if let parent = record.parent, monitor.record(for: parent)?.state != .satisfied { continue }
            var score =
                record.state == .satisfied
                ? 0 : distance(of: record.condition, from: position, plan: monitor.plan, monitor: monitor)
            if current.contains(id) { score -= switchMargin }
            candidates.append((id, score, order))
        }
        candidates.sort { ($0.score, $0.order) < ($1.score, $1.order) }
        let parentOf = Dictionary(uniqueKeysWithValues: candidates.map { ($0.id, monitor.record(for: $0.id)?.parent) })
        var chosen: [String] = []
        var taken: Set<String> = []
        // Nearest first; a child only once its parent is taken (a child nearer than its parent
        // waits for the next pass).
        var remaining = candidates
        while chosen.count < capacity {
            var next: [(id: String, score: Double, order: Int)] = []
            for candidate in remaining {
                if chosen.count < capacity, (parentOf[candidate.id] ?? nil).map(taken.contains) ?? true {
                    chosen.append(candidate.id)
                    taken.insert(candidate.id)
                } else {
                    next.append(candidate)
                }
            }
            if next.count == remaining.count { break }
            remaining = next
        }
        let change = Change(start: chosen.filter { !current.contains($0) }, stop: armed.filter { !taken.contains($0) })
        armed = chosen
        return change
    }

    /// Distance from `position` to the region of `condition`, metres (see the type's discussion).
    func distance(
        of condition: MonitorCondition, from position: PositionObservation, plan: FloorPlan,
        monitor: RegionMonitor
    ) -> Double {
        switch condition {
        case .circle(let circle):
            return max(0, -circle.depth(of: position.position)) + levelPenalty
                * Double(abs(circle.level - position.level))
        case .zone:
            let depth = monitor.depth(of: position, in: condition)
            if depth.isFinite { return max(0, -depth) }
            return levelPenalty
        case .beacon(let beaconCondition):
            var best = Double.infinity
            var any = false
            for floor in plan.floors {
                for beacon in floor.beacons where beaconCondition.matches(beacon.identity) {
                    any = true
                    let d =
                        beacon.position.planar.distance(to: position.position)
                        + levelPenalty * Double(abs(floor.level - position.level))
                    best = min(best, d)
                }
            }
            return any ? best : 0
        }
    }
}

/// The classic ranging pattern as commands a platform adapter executes: start ranging a beacon
/// condition when a region with it becomes satisfied, stop when no satisfied region needs it any
/// more (two regions with the same condition share one ranging).
public struct RangingPolicy: Sendable, Hashable {
    /// A command for the platform.
    public enum Command: Sendable, Hashable {
        /// Start ranging beacons matching the condition.
        case start(BeaconCondition)
        /// Stop ranging them.
        case stop(BeaconCondition)
    }

    /// The conditions being ranged, with the satisfied regions that need each.
    public private(set) var ranging: [BeaconCondition: Set<String>] = [:]

    public init() {}

    /// The commands that `events` call for; `monitor` tells each region's condition.
    public mutating func handle(_ events: [MonitorEvent], in monitor: RegionMonitor) -> [Command] {
        var commands: [Command] = []
        for event in events {
            guard case .beacon(let condition)? = monitor.record(for: event.identifier)?.condition else { continue }
            var regions = ranging[condition] ?? []
            if event.state == .satisfied {
                if regions.isEmpty { commands.append(.start(condition)) }
                regions.insert(event.identifier)
            } else {
                guard regions.remove(event.identifier) != nil else { continue }
                if regions.isEmpty { commands.append(.stop(condition)) }
            }
            ranging[condition] = regions.isEmpty ? nil : regions
        }
        return commands
    }
}
