/// The engine behind an actor, for apps: feed it from a ranging callback, read positions as an
/// `AsyncSequence`, in the style of CoreLocation's `CLMonitor.events`.
///
/// ```swift
/// let session = try PositioningSession(plan: plan)
/// // In the ranging callback (any thread, synchronous): ordered, never blocks.
/// session.submit(samples)
/// // Anywhere else:
/// for await report in await session.reports() { draw(report) }
/// ```
///
/// Every stream returned by ``reports(bufferingPolicy:)`` receives each report published
/// after it was made, in the engine's order (oldest first per device); several consumers (a
/// map view, a logger, a zone monitor) may each hold one. ``finish()`` publishes the last
/// reports and ends every stream.
///
/// Samples may come in two ways; use one of them per session. ``submit(_:)`` is nonisolated
/// and synchronous: it queues the samples in the order of the calls, which is what a delegate
/// callback needs (separate `Task { await … }` calls would not keep their order). The
/// isolated ``push(_:)`` returns each sample's outcome, for callers already in async code.
public actor PositioningSession {
    /// What the session saw, in the engine's order: each sample as it was pushed, with what
    /// happened to it, then the reports it completed (preceded by the set-apart beacons when
    /// they changed). A region monitor consumes this: beacon
    /// conditions from the samples (including those of beacons the plan does not know), circle
    /// and zone conditions from the reports.
    public enum Event: Sendable, Hashable {
        /// A sample pushed into the engine, and its outcome.
        case sample(RSSISample, PositioningEngine.SampleOutcome)
        /// A report published.
        case report(PositionReport)
        /// The beacons the engine's consistency watch sets apart changed (see
        /// ``PositioningEngine/inconsistentBeacons``); sent before the reports that follow.
        case setApart([BeaconIdentity])
    }

    private var engine: PositioningEngine
    private var subscribers: [Int: AsyncStream<PositionReport>.Continuation] = [:]
    private var eventSubscribers: [Int: AsyncStream<Event>.Continuation] = [:]
    private var nextSubscriber = 0
    private var lastSetApart: [BeaconIdentity] = []
    private var finished = false
    private nonisolated let input: AsyncStream<Command>.Continuation

    private enum Command: Sendable {
        case samples([RSSISample])
        case advance(Double)
        case drain(CheckedContinuation<Void, Never>)
    }

    /// A session around `engine` (its plan, calibration and configuration).
    public init(engine: PositioningEngine) {
        self.engine = engine
        let (commands, input) = AsyncStream<Command>.makeStream()
        self.input = input
        Task { [weak self] in
            for await command in commands {
                guard let self else { return }
                await self.perform(command)
            }
        }
    }

    deinit {
        input.finish()
    }

    /// A session with a new engine for `plan`; see ``PositioningEngine/init(plan:calibration:configuration:)``.
    /// - Throws: ``PositioningError`` for a bad setting or a plan without beacons.
    public init(
        plan: FloorPlan, calibration: [BeaconIdentity: PathLossModel] = [:],
        configuration: PositioningEngine.Configuration = PositioningEngine.Configuration()
    ) throws(PositioningError) {
        self.init(engine: try PositioningEngine(plan: plan, calibration: calibration, configuration: configuration))
    }

    // MARK: Feeding

    /// Queues samples from a synchronous context (a ranging callback on any thread). Queued
    /// samples are pushed in the order of the calls, before any later ``submit(_:)`` or
    /// ``submitAdvance(to:)``. Dropped after ``finish()``.
    public nonisolated func submit(_ samples: [RSSISample]) {
        input.yield(.samples(samples))
    }

    /// Queues an ``advance(to:)`` behind the samples already submitted (for a timer that keeps
    /// positions coming when no beacon is heard).
    public nonisolated func submitAdvance(to time: Double) {
        input.yield(.advance(time))
    }

    /// Pushes one sample now and publishes the reports it completes.
    /// - Returns: what happened to the sample (see ``PositioningEngine/push(_:)``); `nil` after
    ///   ``finish()``.
    @discardableResult
    public func push(_ sample: RSSISample) -> PositioningEngine.SampleOutcome? {
        guard !finished else { return nil }
        return feed(sample)
    }

    /// Moves the clock to `time` and publishes the reports and predictions that are due (see
    /// ``PositioningEngine/advance(to:)``).
    public func advance(to time: Double) {
        guard !finished else { return }
        engine.advance(to: time)
        publish(engine.pull())
    }

    /// Waits until every sample submitted before this call has been pushed and its reports
    /// published.
    public func drain() async {
        guard !finished else { return }
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            input.yield(.drain(done))
        }
    }

    /// Pushes the submitted samples still queued, closes every open epoch, publishes the last
    /// reports and ends every report stream. Later samples are dropped and later streams end
    /// at once.
    public func finish() async {
        guard !finished else { return }
        await drain()
        finished = true
        input.finish()
        publish(engine.finish())
        for continuation in subscribers.values { continuation.finish() }
        for continuation in eventSubscribers.values { continuation.finish() }
        subscribers.removeAll()
        eventSubscribers.removeAll()
    }

    // MARK: Reading

    /// A stream of the reports published from now on. `bufferingPolicy` bounds what waits for
    /// a slow consumer (default: keep everything; a map view may keep only the newest).
    public func reports(
        bufferingPolicy: AsyncStream<PositionReport>.Continuation.BufferingPolicy = .unbounded
    )
        -> AsyncStream<PositionReport>
    {
        stream(bufferingPolicy) { id, continuation in subscribers[id] = continuation }
    }

    /// A stream of every ``Event`` from now on: samples with their outcomes and reports,
    /// interleaved in the order the engine saw them (see ``reports(bufferingPolicy:)`` for the
    /// policy). It starts with the set-apart beacons when there are any.
    public func events(
        bufferingPolicy: AsyncStream<Event>.Continuation.BufferingPolicy = .unbounded
    )
        -> AsyncStream<Event>
    {
        stream(bufferingPolicy) { id, continuation in
            eventSubscribers[id] = continuation
            if !lastSetApart.isEmpty { continuation.yield(.setApart(lastSetApart)) }
        }
    }

    /// A new stream, registered by `register` under a fresh id and removed when its consumer
    /// stops; already finished after ``finish()``.
    private func stream<Element: Sendable>(
        _ policy: AsyncStream<Element>.Continuation.BufferingPolicy,
        register: (Int, AsyncStream<Element>.Continuation) -> Void
    ) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: policy)
        guard !finished else {
            continuation.finish()
            return stream
        }
        let id = nextSubscriber
        nextSubscriber += 1
        register(id, continuation)
        continuation.onTermination = { [weak self] _ in
            Task { await self?.unsubscribe(id) }
        }
        return stream
    }

    /// What the engine has counted so far.
    public var statistics: PositioningEngine.Statistics { engine.statistics }

    /// The beacons the engine currently sets apart (see ``PositioningEngine/inconsistentBeacons``).
    public var inconsistentBeacons: [BeaconIdentity] { engine.inconsistentBeacons }

    /// A copy of the engine as it stands (its plan, configuration, beacon consistency).
    public var snapshot: PositioningEngine { engine }

    // MARK: Internals

    private func perform(_ command: Command) {
        switch command {
        case .samples(let samples):
            guard !finished else { return }
            for sample in samples { feed(sample) }
        case .advance(let time):
            advance(to: time)
        case .drain(let done):
            done.resume()
        }
    }

    /// Pushes one sample and publishes it and the reports it completes.
    @discardableResult
    private func feed(_ sample: RSSISample) -> PositioningEngine.SampleOutcome {
        let reportsBefore = engine.statistics.reports
        let outcome = engine.push(sample)
        for continuation in eventSubscribers.values { continuation.yield(.sample(sample, outcome)) }
        // Most samples complete no epoch: pull (which copies) only when one did.
        if engine.statistics.reports != reportsBefore { publish(engine.pull()) }
        return outcome
    }

    private func publish(_ reports: [PositionReport]) {
        guard !reports.isEmpty else { return }
        for continuation in subscribers.values {
            for report in reports { continuation.yield(report) }
        }
        let setApart = engine.inconsistentBeacons
        let changed = setApart != lastSetApart
        lastSetApart = setApart
        for continuation in eventSubscribers.values {
            if changed { continuation.yield(.setApart(setApart)) }
            for report in reports { continuation.yield(.report(report)) }
        }
    }

    private func unsubscribe(_ id: Int) {
        subscribers[id] = nil
        eventSubscribers[id] = nil
    }
}
