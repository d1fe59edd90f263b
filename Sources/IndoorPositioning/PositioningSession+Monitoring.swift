extension PositioningSession {
    /// Feeds `monitor` with this session's samples and reports, in the order the engine saw
    /// them (see ``events(bufferingPolicy:)``): every sample as a beacon sighting, every report
    /// as a position, and the beacons the engine's consistency watch sets apart whenever they
    /// change (so that entries they cause are flagged). A monitor follows one phone: only the
    /// samples and reports of `device` are passed, and `device` must be named — nil means the
    /// samples that carry no device name (an app's own phone), never "every device"; samples of
    /// other devices are not the monitor's.
    ///
    /// Subscribes at once, so nothing published after this call is missed. When the session
    /// finishes, the monitor is finished too, so `for await event in monitor.events` ends; cancel
    /// the returned task to detach earlier (the monitor then stays open).
    /// ```swift
    /// let monitor = try AsyncRegionMonitor(plan: plan)
    /// try await monitor.add(.zone("lobby"), identifier: "lobby")
    /// await session.attach(monitor, device: nil)     // this phone's samples carry no device name
    /// for await event in monitor.events { show(event) }   // ends after session.finish()
    /// ```
    @discardableResult
    public func attach(_ monitor: AsyncRegionMonitor, device: String?) -> Task<Void, Never> {
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
            // The session finished (not a detach): the monitor's event stream ends with it.
            if !Task.isCancelled { await monitor.finish() }
        }
    }
}
