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
            Reads the floor plan, the regions JSON (without --regions: every zone of the plan) and \
            the RSSI samples CSV. Beacon regions are \
            decided from the samples, circles and zones from the positions the engine computes \
            from them (as 'locate' does, with the same positioning options). Each device is monitored on its own. Writes \
            timestamp,region,state, then device (when the input has devices) and, when there are \
            beacon regions, refinement (the beacon that satisfied a wildcard), flag and reason \
            (implausible entries). Events are in time order per device. A summary goes to standard error.
            """
    )

    @OptionGroup var planOption: PlanOption

    @Option(name: .long, help: "Regions JSON. Without it, every zone of the plan is watched, each under its own id.")
    var regions: String?

    @OptionGroup var samples: SamplesOptions

    @Option(
        name: .long,
        help:
            "State of every region before any evidence: unsatisfied (report real entries only) or unknown (also report each region's first decision)."
    )
    var assume: MonitorState = .unsatisfied

    @Option(name: .long, parsing: .unconditional, help: "Beacon regions: matching samples needed to enter.")
    var enterCount: Int = Hysteresis.BeaconRule().enterCount

    @Option(
        name: .long, parsing: .unconditional, help: "Beacon regions: window for --enter-count, seconds.",
        transform: NumberArgument.parse)
    var enterWindow: Double = Hysteresis.BeaconRule().enterWindow

    @Option(
        name: .long, parsing: .unconditional,
        help: "Beacon regions: weakest RSSI (dBm) that counts towards entry (default: any).",
        transform: NumberArgument.parse)
    var enterRssi: Double?

    @Option(
        name: .long, parsing: .unconditional,
        help: "Beacon regions: weakest RSSI (dBm) that keeps a region (default: any).",
        transform: NumberArgument.parse)
    var exitRssi: Double?

    @Option(
        name: .long, parsing: .unconditional, help: "Beacon regions: seconds without a matching sample before leaving.",
        transform: NumberArgument.parse)
    var exitDelay: Double = Hysteresis.BeaconRule().exitDelay

    @Option(
        name: .long, parsing: .unconditional, help: "Circles and zones: metres inside needed to enter.",
        transform: NumberArgument.parse)
    var enterMargin: Double = Hysteresis.PositionRule().enterMargin

    @Option(
        name: .long, parsing: .unconditional, help: "Circles and zones: metres outside needed to leave.",
        transform: NumberArgument.parse)
    var exitMargin: Double = Hysteresis.PositionRule().exitMargin

    @Option(
        name: .long, parsing: .unconditional,
        help: "Circles and zones: seconds the position must stay outside by --exit-margin before leaving.",
        transform: NumberArgument.parse)
    var exitDwell: Double = Hysteresis.PositionRule().exitDwell

    @Option(
        name: .long, parsing: .unconditional,
        help: "Circles and zones: multiple of the position's accuracy added to both margins.",
        transform: NumberArgument.parse)
    var accuracyWeight: Double = Hysteresis.PositionRule().accuracyWeight

    @Option(
        name: .long, parsing: .unconditional,
        help: "Circles and zones: positions less accurate than this (metres) are ignored.",
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
        try modelOptions.validate(with: engine)
    }

    func run() throws {
        try ToolErrors.run {
            let floorPlan = try FloorPlan.load(path: plan)
            let file: RegionsFile
            if let regions {
                file = try RegionsFile.load(path: regions, plan: floorPlan, defaults: hysteresis)
            } else {
                // FORMATS.md: without --regions, every zone of the plan, as if listed with its own id.
                // A zone id on several floors is one region (a zone condition holds on each).
                var ids: [String] = []
                for zone in floorPlan.floors.flatMap(\.zones) where !ids.contains(zone.id) { ids.append(zone.id) }
                file = RegionsFile(regions: ids.map { RegionDefinition(id: $0, condition: .zone($0)) })
                guard !file.regions.isEmpty else {
                    throw ValidationError(
                        "--regions is needed: the plan has no zones to watch (give a regions JSON with beacon or circle regions)"
                    )
                }
            }
            var template = try RegionMonitor(plan: floorPlan, hysteresis: hysteresis)
            try template.add(file, assuming: assume)

            // The samples in batch order (per device, in time order): events do not depend on
            // how the file interleaves devices or orders equal times.
            try OutputFile.refuseOverwriting(
                output, inputs: [plan, rssi] + (regions.map { [$0] } ?? []) + modelOptions.inputs)
            if let positions {
                try OutputFile.refuseOverwriting(
                    positions, inputs: [plan, rssi] + (regions.map { [$0] } ?? []) + modelOptions.inputs)
                try OutputFile.refuseSameOutputs([("--output", output), ("--positions", positions)])
            }
            // A piped input is copied first: self-calibration reads it again.
            let input = try SpooledInput(path: rssi)
            defer { withExtendedLifetime(input) {} }
            var configuration = self.engine.configuration(recordsHistory: false)
            let models = try modelOptions.models(
                plan: floorPlan, rssi: input.path, skipBadRows: skipBadRows, configuration: &configuration,
                quiet: false)
            // The detection curve from a first pass over the input, as locate learns it.
            if let learning = try BatchLocator(
                plan: floorPlan, models: models, configuration: configuration, skipBadRows: skipBadRows,
                detectionFirstPass: engine.detectionFirstPass
            ).learnDetectionIfAsked(path: input.path, into: &configuration.solver) {
                FileHandle.standardError.write(Data("monitor: \(learning.summary)\n".utf8))
            }
            var replay = MonitorReplay(template: template)
            let reader = try RSSISampleReader(path: input.path, skipBadRows: skipBadRows)
            let modesForActivity = configuration.enableMotionModes(forActivityColumn: reader.hasActivity)
            var engine = try PositioningEngine(plan: floorPlan, calibration: models, configuration: configuration)
            var all: [RSSISample] = []
            while let sample = try reader.next() { all.append(sample) }
            let events = EventWriter(
                output: try OutputFile(
                    path: output, notOverwriting: [plan, rssi] + (regions.map { [$0] } ?? []) + modelOptions.inputs),
                format: format,
                includeDevice: reader.hasDevices,
                includeBeaconColumns: file.regions.contains { $0.condition.isBeaconCondition })
            let located = try positions.map {
                try ReportWriter(
                    output: try OutputFile(path: $0), format: .csv, includeDevice: reader.hasDevices, plan: floorPlan)
            }
            var flagged = 0
            // The events of the device just finished, in date order.
            func writeEvents() {
                for (device, event) in replay.takeEvents() {
                    events.write(event, device: device)
                    if event.flag != nil { flagged += 1 }
                }
            }
            // In batch order a device's samples are consecutive: when the next device starts,
            // the previous one is finished (its last epochs reported) and forgotten, in the
            // engine and in the replay, and its events are written, so memory holds one device
            // at a time, not every device. Positions are written as they come, which is already
            // grouped by device and in time order within each.
            let ordered = PositioningEngine.inBatchOrder(all)
            all = []
            var current: String?
            for sample in ordered {
                let name = sample.device ?? ""
                if let previous = current, previous != name {
                    for report in replay.finish(device: previous, in: &engine) { located?.write(report) }
                    writeEvents()
                }
                current = name
                replay.observe(sample)
                engine.push(sample)
                let pulled = engine.pull()
                replay.observe(pulled, setApart: engine)
                for report in pulled { located?.write(report) }
            }
            let last = engine.finish()
            replay.observe(last, setApart: engine)
            for report in last { located?.write(report) }
            writeEvents()
            try located?.finish()
            try events.finish()
            // What was skipped, as locate says it (samples of beacons not in the plan still count
            // for beacon regions; the positions behind circles and zones leave them out).
            let skipped = BatchResult.skipped(counts: reader.counts, statistics: engine.statistics)
            FileHandle.standardError.write(
                Data(
                    ("monitor: \(reader.counts.read) samples, \(file.regions.count) regions, "
                        + "\(replay.deviceCount) device(s), \(events.count) events"
                        + (flagged > 0 ? ", \(flagged) flagged implausible" : "")
                        + (skipped.isEmpty ? "" : "; skipped " + skipped.joined(separator: ", "))
                        + (modesForActivity && engine.statistics.activityHints > 0
                            ? "; \(engine.statistics.activityHints) samples carried the phone's activity, which turned on the tracker's motion modes"
                            : "") + "\n").utf8))
            if let learned = engine.learnedDetection?.summary(statistics: engine.statistics) {
                FileHandle.standardError.write(Data("monitor: \(learned)\n".utf8))
            }
        }
    }
}
