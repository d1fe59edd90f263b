extension PositioningSession {
    /// Feeds `monitor` with this session's samples and reports, in the order the engine saw
    /// them (see ``events(bufferingPolicy:)``): every sample as a beacon sighting, every report
    /// as a position, and the beacons the engine's consistency watch sets apart whenever they
    /// change (so that entries they cause are flagged). Only the samples and reports of `device`
    /// are passed (the monitor follows one phone; nil is the single unnamed device).
    ///
    /// Subscribes at once, so nothing published after this call is missed. The returned task
    /// ends when the session finishes; cancel it to detach earlier. Read the monitor's
    /// `events` as usual.
    /// ```swift
    /// let monitor = try AsyncRegionMonitor(plan: plan)
    /// try await monitor.add(.zone("lobby"), identifier: "lobby")
    /// let feeding = await session.attach(monitor)
    /// for await event in monitor.events { show(event) }
    /// ```
    @discardableResult
    public func attach(_ monitor: AsyncRegionMonitor, device: String? = nil) -> Task<Void, Never> {
        let stream = events()
        return Task {
            for await event in stream {
                if Task.isCancelled { return }
                switch event {
                case .sample(let sample, _) where sample.device == device:
                    await monitor.observe(sample)
                case .report(let report) where report.device == device:
                    await monitor.observe(report)
                case .setApart(let beacons):
                    await monitor.setSetApartBeacons(Set(beacons))
                default:
                    continue
                }
            }
        }
    }
}
