import ArgumentParser
import Foundation
import PositioningIO

/// `indoorpos locate`: positions from an RSSI samples CSV, per device, as fixes CSV (or JSON
/// lines, or GeoJSON).
struct LocateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "locate",
        abstract: "Compute positions from a batch of RSSI samples.",
        discussion: """
            Reads the floor plan and the RSSI samples CSV (timestamp,uuid,major,minor,rssi[,device]) \
            and writes one position per device and epoch: timestamp,x,y,floor,accuracy, then device, \
            z, zone, source and beacons. Samples are read once and streamed while each device's rows \
            are in time order to within a second; at the first row further out of order the file \
            is sorted in memory instead (the summary says so). With --idle-release, a device not \
            heard for that long is finished and forgotten. A summary goes to standard error.
            """
    )

    @OptionGroup var planOption: PlanOption
    @OptionGroup var samples: SamplesOptions

    @OptionGroup var modelOptions: ModelOptions

    @OptionGroup var engine: EngineOptions

    @Flag(name: .long, help: "Smooth the whole track (Rauch-Tung-Striebel) before writing; needs --tracker kalman.")
    var smooth = false

    @Option(name: .long, help: "Output format: csv, jsonl or geojson.")
    var format: ReportFormat = .csv

    @OptionGroup var outputOption: OutputOption

    @Option(
        name: .long, parsing: .unconditional,
        help:
            "Finish and forget a device not heard for this many seconds of input time (the latest sample time read), so that memory follows the devices active at once; for files in time order across devices. Default 0: keep every device to the end (as --smooth does); devices not heard for 10 s are kept in a compact form meanwhile, which changes no output.",
        transform: NumberArgument.parse)
    var idleRelease: Double = 0

    @Option(
        name: .long, parsing: .unconditional,
        help:
            "Threads that position devices, the reading thread among them (default: the machine's active cores). Devices are shared out among them; the output is byte for byte the same for every number.",
        transform: JobsArgument.parse)
    var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    @Flag(name: .long, help: "Nothing on standard error but errors: no progress, no summary, no plan warnings.")
    var quiet = false

    @Flag(name: .long, help: "Add a device_offset column (dB) to the output.")
    var reportDeviceOffset = false

    @Flag(
        name: .long,
        help:
            "Add the horizontal covariance var_x,var_y,cov_xy (m^2) to every fix (CSV columns, JSON lines and GeoJSON properties), so that 'render' draws the real error ellipses."
    )
    var covariance = false

    @Flag(
        name: .long,
        help:
            "Add the tracker's motion-mode probabilities p_standing, p_strolling, p_walking to the output (with --motion-modes)."
    )
    var reportMotion = false

    func validate() throws {
        guard idleRelease.isFinite, idleRelease >= 0 else {
            throw ValidationError("--idle-release must be a number of seconds, 0 or more, got \(idleRelease)")
        }
        try modelOptions.validate(with: engine)
        if smooth && engine.tracker == .none { throw ValidationError("--smooth needs --tracker kalman") }
        if smooth && engine.lag > 0 {
            throw ValidationError(
                "--smooth already uses every later sample; --lag is for output that cannot wait for the end")
        }
        if reportMotion && !engine.motionModes {
            throw ValidationError("--report-motion writes the motion-mode probabilities; it needs --motion-modes")
        }
    }

    var plan: String { planOption.plan }
    var rssi: String { samples.rssi }
    var skipBadRows: Bool { samples.skipBadRows }
    var output: String? { outputOption.output }

    func run() throws {
        try ToolErrors.run {
            try OutputFile.refuseOverwriting(output, inputs: [plan, rssi] + modelOptions.inputs)
            let floorPlan = try FloorPlan.load(path: plan)
            // A piped input is copied first: grouping, smoothing and learning read it again.
            let input = try SpooledInput(path: rssi)
            defer { withExtendedLifetime(input) {} }
            if !quiet {
                for warning in floorPlan.geometryWarnings() {
                    FileHandle.standardError.write(Data("locate: warning: \(plan): \(warning)\n".utf8))
                }
            }
            var configuration = engine.configuration(recordsHistory: smooth)
            configuration.idleRelease = idleRelease > 0 && !smooth ? idleRelease : nil
            let models = try modelOptions.models(
                plan: floorPlan, rssi: input.path, skipBadRows: skipBadRows, configuration: &configuration,
                quiet: quiet)
            let smallest = min(models.values.map(\.sigma).min() ?? .infinity, engine.sampleSigma ?? .infinity)
            if !quiet, smallest < PathLossModel.minimumSigma {
                FileHandle.standardError.write(
                    Data(
                        "locate: note: a shadowing sigma of \(smallest) dB is raised to \(PathLossModel.minimumSigma) dB (the smallest the engine uses)\n"
                            .utf8))
            }
            var writer: ReportWriter?
            let progress = Progress(enabled: !quiet, path: input.path)
            let locator = BatchLocator(
                plan: floorPlan, models: models, configuration: configuration, smooth: smooth,
                skipBadRows: skipBadRows, jobs: jobs, detectionFirstPass: engine.detectionFirstPass)
            let result = try locator.run(
                path: input.path,
                hasDevices: { hasDevices in
                    // Opened once the input is readable, so a bad input leaves no output.
                    let out = try OutputFile(path: output)
                    out.holdsStandardOutput = true
                    writer = try ReportWriter(
                        output: out, format: format, includeDevice: hasDevices,
                        includeDeviceOffset: reportDeviceOffset, includeCovariance: covariance,
                        includeMotion: reportMotion, plan: floorPlan)
                },
                write: { writer?.write($0) },
                encoder: { writer?.encoder },
                writeEncoded: { writer?.write(encoded: $0, reports: $1) },
                restart: {
                    guard writer?.restart() == true else {
                        throw BatchLocatorError.cannotStartOver(path: output ?? "-")
                    }
                },
                progress: progress.tick)
            try writer?.finish()
            progress.done()
            if let learned = result.learnedModels, !quiet {
                let file = CalibrationFile(learned: learned, pooled: nil)
                let updates = result.statistics.learnedModelUpdates
                let title =
                    updates > 0
                    ? "learned while locating (taken into use \(updates) time(s)):\n"
                    : "learned while locating, but never used: the input ended before the first model update (every \(Int(configuration.learning?.updateInterval ?? 0)) s of input time after the first sample); every position used the starting models:\n"
                FileHandle.standardError.write(
                    Data((title + CalibrationTable(plan: floorPlan, calibration: file).text).utf8))
            }
            if !quiet {
                Summary(result: result).print()
                if let hint { FileHandle.standardError.write(Data("locate: hint: \(hint)\n".utf8)) }
            }
        }
    }

    /// The one line that tells a run on the plan's values alone what the data allow: learning
    /// the models from the input and refining the track (figures from Docs/Evidence/Accuracy.md). Nil
    /// when the run already learns or was given a calibration, or is not tracked.
    var hint: String? {
        guard modelOptions.calibration == nil, !modelOptions.selfCalibrate, !modelOptions.learnOnline,
            engine.tracker == .kalman
        else { return nil }
        let refine = smooth || engine.lag > 0 ? "" : ", and --lag 3 (positions 3 s late) or --smooth refines the track"
        return
            "the plan's values alone; --self-calibrate learns each beacon's model from this input first\(refine) "
            + "(danis-office walks: 3.20 m RMSE as run, 2.09 m self-calibrated, 1.86 m with --lag 3; Docs/Guide/Calibration.md)"
    }
}
