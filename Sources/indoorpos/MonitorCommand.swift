import ArgumentParser
import Foundation
import PositioningIO

extension EventFormat: ExpressibleByArgument {}
extension MonitorState: ExpressibleByArgument {}

/// `indoorpos monitor`: region events (entries and exits of beacon conditions, circles and
/// zones) from an RSSI samples CSV, per device, as events CSV (or JSON lines).
struct MonitorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "monitor",
        abstract: "Replay RSSI samples through region monitoring and print the entry and exit events.",
        discussion: """
            Reads the floor plan, the regions JSON and the RSSI samples CSV. Beacon regions are \
            decided from the samples, circles and zones from the positions the engine computes \
            from them (as 'locate' does, with the same positioning options). Each device is monitored on its own. Writes \
            timestamp,region,state, then device (when the input has devices) and, when there are \
            beacon regions, refinement (the beacon that satisfied a wildcard), flag and reason \
            (implausible entries). Events are in time order per device. A summary goes to standard error.
            """
    )

    @OptionGroup var planOption: PlanOption

    @Option(name: .long, help: "Regions JSON.")
    var regions: String

    @OptionGroup var samples: SamplesOptions

    @Option(
        name: .long,
        help:
            "State of every region before any evidence: unsatisfied (report real entries only) or unknown (also report each region's first decision)."
    )
    var assume: MonitorState = .unsatisfied

    @Option(name: .long, help: "Beacon regions: matching samples needed to enter.")
    var enterCount: Int = Hysteresis.BeaconRule().enterCount

    @Option(name: .long, help: "Beacon regions: window for --enter-count, seconds.", transform: NumberArgument.parse)
    var enterWindow: Double = Hysteresis.BeaconRule().enterWindow

    @Option(
        name: .long, help: "Beacon regions: weakest RSSI (dBm) that counts towards entry (default: any).",
        transform: NumberArgument.parse)
    var enterRssi: Double?

    @Option(
        name: .long, help: "Beacon regions: weakest RSSI (dBm) that keeps a region (default: any).",
        transform: NumberArgument.parse)
    var exitRssi: Double?

    @Option(
        name: .long, help: "Beacon regions: seconds without a matching sample before leaving.",
        transform: NumberArgument.parse)
    var exitDelay: Double = Hysteresis.BeaconRule().exitDelay

    @Option(name: .long, help: "Circles and zones: metres inside needed to enter.", transform: NumberArgument.parse)
    var enterMargin: Double = Hysteresis.PositionRule().enterMargin

    @Option(name: .long, help: "Circles and zones: metres outside needed to leave.", transform: NumberArgument.parse)
    var exitMargin: Double = Hysteresis.PositionRule().exitMargin

    @Option(
        name: .long, help: "Circles and zones: seconds the position must stay outside by --exit-margin before leaving.",
        transform: NumberArgument.parse)
    var exitDwell: Double = Hysteresis.PositionRule().exitDwell

    @Option(
        name: .long, help: "Circles and zones: multiple of the position's accuracy added to both margins.",
        transform: NumberArgument.parse)
    var accuracyWeight: Double = Hysteresis.PositionRule().accuracyWeight

    @Option(
        name: .long, help: "Circles and zones: positions less accurate than this (metres) are ignored.",
        transform: NumberArgument.parse)
    var maximumAccuracy: Double = Hysteresis.PositionRule().maximumAccuracy

    @Option(name: .long, help: "Output format: csv or jsonl.")
    var format: EventFormat = .csv

    @OptionGroup var outputOption: OutputOption

    @Option(
        name: .long,
        help:
            "Also write the positions behind the circle and zone events to this file (the fixes CSV of 'locate', grouped by device)."
    )
    var positions: String?

    @OptionGroup(title: "Path-loss models (as for 'locate')") var modelOptions: ModelOptions

    @OptionGroup(title: "Positioning (circles and zones)") var engine: EngineOptions

    var plan: String { planOption.plan }
    var rssi: String { samples.rssi }
    var skipBadRows: Bool { samples.skipBadRows }
    var output: String? { outputOption.output }

    var hysteresis: Hysteresis {
        Hysteresis(
            beacon: .init(
                enterCount: enterCount, enterWindow: enterWindow, enterRSSI: enterRssi,
                exitRSSI: exitRssi, exitDelay: exitDelay),
            position: .init(
                enterMargin: enterMargin, exitMargin: exitMargin, exitDwell: exitDwell,
                accuracyWeight: accuracyWeight, maximumAccuracy: maximumAccuracy))
    }

    func validate() throws {
        if let problem = hysteresis.problem { throw ValidationError("hysteresis: \(problem)") }
        if assume == .satisfied { throw ValidationError("--assume must be unsatisfied or unknown") }
    }

    func run() throws {
        try ToolErrors.run {
            let floorPlan = try FloorPlan.load(path: plan)
            let file = try RegionsFile.load(path: regions, plan: floorPlan, defaults: hysteresis)
            var template = try RegionMonitor(plan: floorPlan, hysteresis: hysteresis)
            try template.add(file, assuming: assume)

            // The samples in batch order (per device, in time order): events do not depend on
            // how the file interleaves devices or orders equal times.
            try OutputFile.refuseOverwriting(output, inputs: [plan, regions, rssi] + modelOptions.inputs)
            if let positions {
                try OutputFile.refuseOverwriting(positions, inputs: [plan, regions, rssi] + modelOptions.inputs)
                try OutputFile.refuseSameOutputs([("--output", output), ("--positions", positions)])
            }
            // A piped input is copied first: self-calibration reads it again.
            let input = try SpooledInput(path: rssi)
            defer { withExtendedLifetime(input) {} }
            var configuration = self.engine.configuration(recordsHistory: false)
            let models = try modelOptions.models(
                plan: floorPlan, rssi: input.path, skipBadRows: skipBadRows, configuration: &configuration,
                quiet: false)
            var replay = MonitorReplay(template: template)
            let reader = try RSSISampleReader(path: input.path, skipBadRows: skipBadRows)
            let modesForActivity = configuration.enableMotionModes(forActivityColumn: reader.hasActivity)
            var engine = try PositioningEngine(plan: floorPlan, calibration: models, configuration: configuration)
            var all: [RSSISample] = []
            while let sample = try reader.next() { all.append(sample) }
            var located: [PositionReport] = []
            for sample in PositioningEngine.inBatchOrder(all) {
                replay.observe(sample)
                engine.push(sample)
                let reports = engine.pull()
                replay.observe(reports, setApart: engine)
                if positions != nil { located += reports }
            }
            let last = engine.finish()
            replay.observe(last, setApart: engine)
            if let positions {
                located += last
                let writer = try ReportWriter(
                    output: try OutputFile(path: positions), format: .csv, includeDevice: reader.hasDevices)
                // Grouped by device (first seen first), in time order within each, as the events are.
                let rank = replay.deviceRank
                let ordered = located.enumerated().sorted {
                    (rank($0.element.device), $0.offset) < (rank($1.element.device), $1.offset)
                }
                for (_, report) in ordered { writer.write(report) }
                try writer.finish()
            }

            let writer = EventWriter(
                output: try OutputFile(
                    path: output, notOverwriting: [plan, regions, rssi] + modelOptions.inputs),
                format: format,
                includeDevice: reader.hasDevices,
                includeBeaconColumns: file.regions.contains { $0.condition.isBeaconCondition })
            for (device, event) in replay.events { writer.write(event, device: device) }
            try writer.finish()
            let flagged = replay.events.filter { $0.event.flag != nil }.count
            FileHandle.standardError.write(
                Data(
                    ("monitor: \(reader.counts.read) samples, \(file.regions.count) regions, "
                        + "\(replay.devices.count) device(s), \(writer.count) events"
                        + (flagged > 0 ? ", \(flagged) flagged implausible" : "")
                        + (modesForActivity && engine.statistics.activityHints > 0
                            ? "; \(engine.statistics.activityHints) samples carried the phone's activity, which turned on the tracker's motion modes"
                            : "") + "\n").utf8))
        }
    }
}

/// One region monitor per device, fed samples and reports, collecting events.
struct MonitorReplay {
    let template: RegionMonitor
    /// Devices in the order first seen.
    private(set) var devices: [String?] = []
    private var monitors: [String?: RegionMonitor] = [:]
    private var collected: [(device: String?, event: MonitorEvent)] = []

    init(template: RegionMonitor) { self.template = template }

    /// The events grouped by device (first seen first) and in date order within each.
    var events: [(device: String?, event: MonitorEvent)] {
        let rank = deviceRank
        return collected.enumerated().sorted {
            (rank($0.element.device), $0.element.event.date, $0.offset)
                < (rank($1.element.device), $1.element.event.date, $1.offset)
        }.map(\.element)
    }

    /// Each device's place in the order devices were first seen (0 for one never seen), for
    /// output grouped by device; no name and the empty name share a place.
    var deviceRank: (String?) -> Int {
        let rank = Dictionary(
            devices.enumerated().map { ($0.element ?? "", $0.offset) }, uniquingKeysWith: { a, _ in a })
        return { rank[$0 ?? ""] ?? 0 }
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

    private mutating func take(_ device: String?) -> RegionMonitor {
        if let monitor = monitors.removeValue(forKey: device) { return monitor }
        devices.append(device)
        return template
    }
}
