import ArgumentParser
import Evaluation
import Foundation
import PositioningIO
import Rendering

/// `indoorpos evaluate --fixes F --truth T`: scores fixes against ground truth.
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
            compare runs.
            """
    )

    @Option(name: .long, help: "Fixes CSV (timestamp,x,y[,floor,accuracy,device,...]); repeat to compare runs.")
    var fixes: [String] = []

    @Option(name: .long, help: "Truth CSV (timestamp,x,y[,floor,device]).")
    var truth: String

    @Option(name: .long, help: "A name per --fixes, in the same order (default: the file names).")
    var label: [String] = []

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
    }

    func run() throws {
        try ToolErrors.run {
            if let cdf { try OutputFile.refuseSameOutputs([("--cdf", cdf), ("--output", output)]) }
            let truthTable = try TrackTable.read(path: truth)
            var runs: [EvaluationRun] = []
            for (index, path) in fixes.enumerated() {
                let evaluation = TrackScore(fixes: try TrackTable.read(path: path), truth: truthTable, maxGap: maxGap)
                if evaluation.overall.count == 0 {
                    if evaluation.skippedInGaps > 0 {
                        throw EvaluationError.onlyInGaps(
                            fixes: path, truth: truth, count: evaluation.skippedInGaps, maxGap: maxGap)
                    }
                    throw EvaluationError.noOverlap(fixes: path, truth: truth)
                }
                let name =
                    label.isEmpty ? URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent : label[index]
                runs.append(EvaluationRun(label: name, evaluation: evaluation))
                if evaluation.overall.skipped > 0 {
                    FileHandle.standardError.write(
                        Data(
                            ("note: \(path): skipped \(evaluation.overall.skipped) fixes outside the truth's "
                                + "time span, inside truth gaps over \(SVGDocument.number(maxGap)) s, or of devices without truth\n")
                                .utf8))
                }
            }
            var chart: OutputFile?
            if let cdf {
                let file = try OutputFile(path: cdf, notOverwriting: fixes + [truth])
                file.write(ErrorCDFChart.svg(runs))
                chart = file
            }
            let out = try OutputFile(path: output, notOverwriting: fixes + [truth])
            out.write(EvaluationReport.format(runs, as: format))
            try chart?.commit()
            try out.commit()
        }
    }
}
