import IndoorPositioning
import Monitoring

/// One region monitor per device, copied from a template when the device is first seen and fed
/// its samples and reports, collecting the events until they are taken. For input in batch order
/// (`PositioningEngine.inBatchOrder`), a device is finished when the next one starts
/// (``finish(device:in:)``), so only the device at hand holds a monitor.
struct MonitorReplay {
    let template: RegionMonitor
    /// Devices seen so far (no name and the empty name count apart, as the engine keeps them).
    private(set) var deviceCount = 0
    private var monitors: [String?: RegionMonitor] = [:]
    private var collected: [(device: String?, event: MonitorEvent)] = []

    init(template: RegionMonitor) { self.template = template }

    /// The events collected since the last call, in date order (stable), and forgets them.
    mutating func takeEvents() -> [(device: String?, event: MonitorEvent)] {
        defer { collected.removeAll(keepingCapacity: true) }
        return collected.enumerated().sorted {
            ($0.element.event.date, $0.offset) < ($1.element.event.date, $1.offset)
        }.map(\.element)
    }

    mutating func observe(_ sample: RSSISample) {
        var monitor = take(sample.device)
        collected += monitor.observe(sample).map { (sample.device, $0) }
        monitors[sample.device] = monitor
    }

    mutating func observe(_ reports: [PositionReport], setApart engine: PositioningEngine) {
        for report in reports {
            var monitor = take(report.device)
            monitor.takeSetApartBeacons(from: engine)
            collected += monitor.observe(report).map { (report.device, $0) }
            monitors[report.device] = monitor
        }
    }

    /// Finishes the device named `name` (no name and the empty name alike, as
    /// `PositioningEngine.inBatchOrder` groups them) in `engine`, feeds its last reports to its
    /// monitor and forgets the monitor: for input in batch order, where no later sample of it
    /// comes. Returns those reports.
    mutating func finish(device name: String, in engine: inout PositioningEngine) -> [PositionReport] {
        let names: [String?] = name.isEmpty ? [nil, ""] : [name]
        for device in names { engine.finish(device: device) }
        let reports = engine.pull()
        observe(reports, setApart: engine)
        for device in names { monitors[device] = nil }
        return reports
    }

    private mutating func take(_ device: String?) -> RegionMonitor {
        if let monitor = monitors.removeValue(forKey: device) { return monitor }
        deviceCount += 1
        return template
    }
}
