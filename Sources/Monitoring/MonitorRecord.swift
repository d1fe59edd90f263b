import BeaconModel

/// One visit of a region: from the entry to the exit (nil while still inside), seconds.
public struct Visit: Sendable, Hashable, Codable {
    /// When the region became satisfied.
    public var entry: Double
    /// When it became unsatisfied again; nil while the visit lasts.
    public var exit: Double?

    public init(entry: Double, exit: Double? = nil) {
        self.entry = entry
        self.exit = exit
    }

    /// Time spent inside up to `time` (or up to the exit), seconds.
    public func dwell(at time: Double) -> Double { max(0, (exit ?? time) - entry) }
}

/// The visits of one region, so that "first time here" and "thanks for visiting" need no
/// bookkeeping in the app.
public struct VisitLog: Sendable, Hashable, Codable {
    /// Most visits kept in ``recent``; older ones still count in ``count`` and ``totalDwell``.
    public static let recentLimit = 32

    /// The entry time of the first visit ever; nil before any.
    public private(set) var firstEntry: Double?
    /// The exit time of the last completed visit; nil before any.
    public private(set) var lastExit: Double?
    /// Number of visits (including one under way).
    public private(set) var count = 0
    /// Total time inside over completed visits, seconds.
    public private(set) var totalDwell = 0.0
    /// The latest visits, oldest first (at most ``recentLimit``); the last is open while inside.
    public private(set) var recent: [Visit] = []

    public init() {}

    /// The visit under way, if the region is satisfied.
    public var current: Visit? {
        guard let last = recent.last, last.exit == nil else { return nil }
        return last
    }

    mutating func enter(at time: Double) {
        if firstEntry == nil { firstEntry = time }
        count += 1
        recent.append(Visit(entry: time))
        if recent.count > Self.recentLimit { recent.removeFirst(recent.count - Self.recentLimit) }
    }

    mutating func exit(at time: Double) {
        guard let last = recent.indices.last, recent[last].exit == nil else { return }
        recent[last].exit = time
        lastExit = time
        totalDwell += recent[last].dwell(at: time)
    }
}

/// What the monitor knows about one region, as `CLMonitor.Record`: its condition, its state
/// and last event, and its visits.
public struct MonitorRecord: Sendable, Hashable, Codable {
    /// The condition monitored.
    public var condition: MonitorCondition
    /// The region this one is nested in (armed only while that one is satisfied), if any.
    public var parent: String?
    /// The region's own hysteresis; nil: the monitor's.
    public var hysteresis: Hysteresis?
    /// The latest state change (or the assumed state when the region was added, dated with the
    /// monitor's time then, 0 before any input).
    public var lastEvent: MonitorEvent
    /// Entry and exit times.
    public var visits: VisitLog

    /// The current state.
    public var state: MonitorState { lastEvent.state }
}
