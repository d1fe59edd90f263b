import BeaconModel

/// The app-facing face of ``RegionMonitor``: an actor that serialises every change and delivers
/// the events as an `AsyncSequence`, like `CLMonitor`.
///
/// ```swift
/// let monitor = try AsyncRegionMonitor(plan: plan)
/// try await monitor.add(.zone("lobby"), identifier: "lobby")
/// Task { for await event in monitor.events { show(event) } }
/// await monitor.observe(sighting)               // from the ranging callback
/// ```
///
/// Time still comes only from the inputs; to let beacon exits fall due while nothing is heard
/// (platforms stop delivering sightings when no beacon is in range), call ``advance(to:)`` from a
/// timer, or ``advanceToNow()`` with the clock given at creation.
///
/// ``events`` is one `AsyncStream` for one consumer, unbounded: every event is kept until read.
/// It finishes when ``finish()`` is called or the actor is released.
public actor AsyncRegionMonitor {
    private var core: RegionMonitor
    private let continuation: AsyncStream<MonitorEvent>.Continuation
    private let clock: (@Sendable () -> Double)?

    /// Every event, in the order the monitor produced them.
    public nonisolated let events: AsyncStream<MonitorEvent>

    /// Wraps `monitor` (for example one restored from a snapshot).
    /// - Parameter clock: the time, in the inputs' seconds, for ``advanceToNow()``; nil when
    ///   the app passes times itself.
    public init(_ monitor: RegionMonitor, clock: (@Sendable () -> Double)? = nil) {
        core = monitor
        self.clock = clock
        (events, continuation) = AsyncStream.makeStream(of: MonitorEvent.self)
    }

    /// A monitor without regions for `plan`.
    /// - Throws: ``MonitorError/invalidHysteresis(path:detail:)``.
    public init(
        plan: FloorPlan, hysteresis: Hysteresis = Hysteresis(),
        plausibility: PlausibilityRule = PlausibilityRule(),
        clock: (@Sendable () -> Double)? = nil
    ) throws(MonitorError) {
        self.init(try RegionMonitor(plan: plan, hysteresis: hysteresis, plausibility: plausibility), clock: clock)
    }

    deinit { continuation.finish() }

    /// The identifiers of the monitored regions, in the order they were added.
    public var identifiers: [String] { core.identifiers }

    /// The record of `identifier`, if monitored.
    public func record(for identifier: String) -> MonitorRecord? { core.record(for: identifier) }

    /// Starts monitoring, as ``RegionMonitor/add(_:identifier:assuming:parent:hysteresis:)``.
    public func add(
        _ condition: MonitorCondition, identifier: String, assuming state: MonitorState = .unknown,
        parent: String? = nil, hysteresis: Hysteresis? = nil
    ) throws(MonitorError) {
        try core.add(condition, identifier: identifier, assuming: state, parent: parent, hysteresis: hysteresis)
    }

    /// Stops monitoring `identifier` and the regions nested in it; returns the identifiers removed.
    @discardableResult
    public func remove(_ identifier: String) -> [String] { core.remove(identifier) }

    /// Feeds a sighting; its events go to ``events`` and are returned.
    @discardableResult
    public func observe(_ sighting: BeaconSighting) -> [MonitorEvent] { deliver(core.observe(sighting)) }

    /// Feeds a position; its events go to ``events`` and are returned.
    @discardableResult
    public func observe(_ position: PositionObservation) -> [MonitorEvent] { deliver(core.observe(position)) }

    /// Lets time pass to `time`; due exits go to ``events`` and are returned.
    @discardableResult
    public func advance(to time: Double) -> [MonitorEvent] { deliver(core.advance(to: time)) }

    /// Lets time pass to the injected clock's time (nothing without a clock).
    @discardableResult
    public func advanceToNow() -> [MonitorEvent] {
        guard let clock else { return [] }
        return advance(to: clock())
    }

    /// Beacons set apart by the positioning engine (entries they cause are flagged).
    public func setSetApartBeacons(_ beacons: Set<BeaconIdentity>) { core.setApartBeacons = beacons }

    /// The whole state, to restore with ``RegionMonitor/init(plan:restoring:)`` after a relaunch.
    public func snapshot() -> MonitorSnapshot { core.snapshot() }

    /// The wrapped state machine as it is now.
    public var monitor: RegionMonitor { core }

    /// Ends ``events``; later events are still returned by the feeding calls.
    public func finish() { continuation.finish() }

    private func deliver(_ events: [MonitorEvent]) -> [MonitorEvent] {
        for event in events { continuation.yield(event) }
        return events
    }
}
