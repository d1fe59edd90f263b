import ArgumentParser
import Evaluation
import Foundation
import PositioningIO
import Rendering

/// `indoorpos evaluate --fixes F --truth T [--plan P [--events E]]`: scores fixes against ground
/// truth, and with a plan with zones, scores the zone each fix names (``ZoneScore``).
struct EvaluateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate",
        abstract: "Score fixes against ground truth: RMSE, median, P90, P95, honesty, floor hit rate.",
        discussion: """
            The truth (timestamp,x,y[,floor][,device]) is interpolated linearly at each fix's time, \
            per device; a truth without a device column applies to every device. Fixes outside the \
            truth's time span, inside a truth gap longer than --max-gap, or of a device the truth \
            lacks are skipped and counted. Honesty is the share of fixes whose error is at most \
            their accuracy (about 63 % is right for a 1-sigma radius). The same rules as \
            Scripts/reference/evaluate.py. Give --fixes several times (with as many --label) to \
            compare runs. With --plan (a plan with zones) each run also gets zone figures, by the \
            rules of Scripts/reference/zones.py: for the fixes' zone column, the plain \
            point-in-polygon rule on x,y, and that rule with a 3-fix debounce; held share, true \
            entries caught within ±10 s and their median latency, false entries, zone changes, \
            and with --events the longest time two zones were satisfied at once.
            """
    )

    @Option(name: .long, help: "Fixes CSV (timestamp,x,y[,floor,accuracy,device,zone,...]); repeat to compare runs.")
    var fixes: [String] = []

    @Option(name: .long, help: "Truth CSV (timestamp,x,y[,floor,device]).")
    var truth: String

    @Option(name: .long, help: "A name per --fixes, in the same order (default: the file names).")
    var label: [String] = []

    @Option(
        name: .long,
        help: "Floor plan JSON: with zones, adds zone figures per run (held, entries caught, false entries, changes).")
    var plan: String?

    @Option(
        name: .long,
        help:
            "Monitor events CSV (timestamp,region,state[,device]) over the plan's zones: adds the longest time two zones were satisfied at once (needs --plan)."
    )
    var events: String?

    @Option(name: .long, help: "Output format: a table per run, JSON, or a Markdown table with a row per run.")
    var format: EvaluationFormat = .text

    @Option(name: .long, help: "Also write the error CDF of every run as an SVG chart here.")
    var cdf: String?

    @Option(
        name: .long, parsing: .unconditional, help: "Skip fixes inside truth gaps longer than this, seconds.",
        transform: NumberArgument.parse)
    var maxGap: Double = TrackScore.defaultMaxGap

    @Option(name: .long, help: "Write the metrics here instead of standard output (the file appears only on success).")
    var output: String?

    func validate() throws {
        guard !fixes.isEmpty else { throw ValidationError("give at least one --fixes file") }
        guard label.isEmpty || label.count == fixes.count else {
            throw ValidationError("give one --label per --fixes (\(fixes.count) fixes, \(label.count) labels)")
        }
        guard maxGap.isFinite, maxGap > 0 else {
            throw ValidationError("--max-gap must be a positive number of seconds, got \(maxGap)")
        }
        guard events == nil || plan != nil else {
            throw ValidationError("--events needs --plan (the zone figures come from the plan's zones)")
        }
    }

    /// The plan's zones, nil (with a note) when the plan has none; nil without --plan.
    func planZones() throws -> PlanZones? {
        guard let plan else { return nil }
        let zones = PlanZones(plan: try FloorPlan.load(path: plan))
        guard !zones.isEmpty else {
            note("\(plan): the plan has no zones: no zone figures")
            return nil
        }
        return zones
    }

    func note(_ text: String) {
        FileHandle.standardError.write(Data("note: \(text)\n".utf8))
    }

    func run() throws {
        try ToolErrors.run {
            if let cdf { try OutputFile.refuseSameOutputs([("--cdf", cdf), ("--output", output)]) }
            let truthTable = try TrackTable.read(path: truth)
            let zones = try planZones()
            var zoneEvents: [RegionEvent]?
            if zones != nil, let events { zoneEvents = try RegionEvent.read(path: events) }
            var runs: [EvaluationRun] = []
            for (index, path) in fixes.enumerated() {
                let fixTable = try TrackTable.read(path: path)
                let evaluation = TrackScore(fixes: fixTable, truth: truthTable, maxGap: maxGap)
                if evaluation.overall.count == 0 {
                    if evaluation.skippedInGaps > 0 {
                        throw EvaluationError.onlyInGaps(
                            fixes: path, truth: truth, count: evaluation.skippedInGaps, maxGap: maxGap)
                    }
                    throw EvaluationError.noOverlap(fixes: path, truth: truth)
                }
                let name =
                    label.isEmpty ? URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent : label[index]
                let zoneScore = zones.map {
                    ZoneScore(zones: $0, fixes: fixTable, truth: truthTable, events: zoneEvents)
                }
                runs.append(EvaluationRun(label: name, evaluation: evaluation, zones: zoneScore))
                if evaluation.overall.skipped > 0 {
                    note(
                        "\(path): skipped \(evaluation.overall.skipped) fixes outside the truth's time span, inside "
                            + "truth gaps over \(SVGDocument.number(maxGap)) s, or of devices without truth")
                }
                if let zoneScore {
                    if !fixTable.hasZone { note("\(path): no zone column: the library's zone figures are skipped") }
                    if zoneScore.skipped > 0 {
                        note(
                            "\(path): zone figures skipped \(zoneScore.skipped) fixes more than 1 s outside the "
                                + "truth's time span or of devices without truth")
                    }
                }
            }
            let inputs = fixes + [truth] + [plan, events].compactMap { $0 }
            var chart: OutputFile?
            if let cdf {
                let file = try OutputFile(path: cdf, notOverwriting: inputs)
                file.write(ErrorCDFChart.svg(runs))
                chart = file
            }
            let out = try OutputFile(path: output, notOverwriting: inputs)
            out.write(EvaluationReport.format(runs, as: format))
            try chart?.commit()
            try out.commit()
        }
    }
}
