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

    @Option(name: .long, help: "Floor plan JSON.")
    var plan: String

    @Option(name: .long, help: "RSSI samples CSV.")
    var rssi: String

    @Option(name: .long, help: "Calibration JSON from 'indoorpos calibrate': per-beacon values override the plan's.")
    var calibration: String?

    @Option(name: .long, help: "Epoch length in seconds: one position per device and epoch.")
    var epoch: Double = 1

    @Option(name: .long, help: "Tracking: kalman (fuse every sample at its own time) or none (one fix per epoch).")
    var tracker: PositioningEngine.TrackingMode = .kalman

    @Flag(name: .long, help: "Smooth the whole track (Rauch-Tung-Striebel) before writing; needs --tracker kalman.")
    var smooth = false

    @Option(name: .long, help: "Shadowing sigma of a single RSSI sample in dB, for every beacon (default: each beacon's calibrated sigma, or 4 dB).")
    var sampleSigma: Double?

    @Option(name: .long, help: "Tracker process noise: acceleration spectral density in m^2/s^3 (default 0.8 with a 2-s velocity correlation time, a walking person; lower for slow movers).")
    var accelerationDensity: Double?

    @Flag(name: .long, help: "Do not keep positions inside the floor outline.")
    var noOutline = false

    @Flag(name: .long, help: "Skip malformed rows (counted on standard error) instead of stopping at the first.")
    var skipBadRows = false

    @Option(name: .long, help: "Output format: csv, jsonl or geojson.")
    var format: FixFormat = .csv

    @Option(name: .long, help: "Write here instead of standard output (the file appears only on success).")
    var output: String?

    @Option(name: .long, help: "Finish and forget a device not heard for this many seconds of input time (the latest sample time read), so that memory follows the devices active at once; for files in time order across devices. Default 0: keep every device to the end (as --smooth does).")
    var idleRelease: Double = 0

    @Flag(name: .long, help: "Nothing on standard error but errors: no progress, no summary, no plan warnings.")
    var quiet = false

    @Option(name: .long, help: "This phone's known RSSI offset in dB against the plan's or calibration's models (0 turns the offset estimate off; default: estimated per device).")
    var deviceOffset: Double?

    @Option(name: .long, help: "Prior standard deviation of the estimated device offset in dB (default 3 with --calibration, else 10).")
    var deviceOffsetSigma: Double?

    @Option(name: .long, help: "Share of each sample's variance that is time-correlated shadowing, 0 to <1 (default 0.4; 0: independent samples).")
    var shadowingShare: Double?

    @Option(name: .long, help: "Correlation time of the shadowing in seconds (default 5).")
    var shadowingTime: Double?

    @Flag(name: .long, help: "Add a device_offset column (dB) to the output.")
    var reportDeviceOffset = false

    @Flag(name: .long, help: "Add the horizontal covariance var_x,var_y,cov_xy (m^2) to every fix (CSV columns, JSON lines and GeoJSON properties), so that 'render' draws the real error ellipses.")
    var covariance = false

    @Flag(name: .long, help: "Learn every beacon's path-loss model while locating, from the well-determined epochs so far, and use the learned models from then on (updated every minute of input time; for a live feed in time order).")
    var learnOnline = false

    @Flag(name: .long, help: "Learn every beacon's path-loss model from this input first (as 'calibrate --from-traffic' does, starting from --calibration if given), then locate with the learned models. Reads the input more than once.")
    var selfCalibrate = false

    @Flag(name: .long, help: "Mix the motion modes standing, strolling and walking in the tracker: a steadier dot (see Docs/Tracking.md).")
    var motionModes = false

    @Flag(name: .long, help: "Add the tracker's motion-mode probabilities p_standing, p_strolling, p_walking to the output (with --motion-modes).")
    var reportMotion = false

    func validate() throws {
        guard epoch.isFinite, epoch >= 0.01, epoch <= 3600 else {
            throw ValidationError("--epoch must be between 0.01 and 3600 seconds, got \(epoch)")
        }
        if let accelerationDensity, !(accelerationDensity.isFinite && accelerationDensity > 0) {
            throw ValidationError("--acceleration-density must be a positive number of m^2/s^3, got \(accelerationDensity)")
        }
        guard idleRelease.isFinite, idleRelease >= 0 else {
            throw ValidationError("--idle-release must be a number of seconds, 0 or more, got \(idleRelease)")
        }
        if smooth && tracker == .none { throw ValidationError("--smooth needs --tracker kalman") }
        if let sampleSigma, !(sampleSigma.isFinite && sampleSigma > 0 && sampleSigma <= 30) {
            throw ValidationError("--sample-sigma must be in (0, 30] dB, got \(sampleSigma)")
        }
        if learnOnline && selfCalibrate {
            throw ValidationError("--learn-online and --self-calibrate are two ways to learn the models; choose one")
        }
        if deviceOffset != nil && deviceOffsetSigma != nil {
            throw ValidationError("--device-offset sets a known offset; it cannot be combined with --device-offset-sigma")
        }
        do {
            try offsetModel?.validate()
            try shadowingModel.validate()
        } catch {
            throw ValidationError(String(describing: error))
        }
    }

    /// The device-offset setting the options ask for (nil: the engine's default).
    var offsetModel: DeviceOffsetModel? {
        if let deviceOffset { return .fixed(deviceOffset) }
        return deviceOffsetSigma.map { DeviceOffsetModel(priorSigma: $0) }
    }

    /// The shadowing model the options ask for.
    var shadowingModel: ShadowingModel {
        var model = ShadowingModel()
        if let shadowingShare { model.correlatedShare = shadowingShare }
        if let shadowingTime { model.correlationTime = shadowingTime }
        return model
    }

    func run() throws {
        try ToolErrors.run {
            try OutputFile.refuseOverwriting(output, inputs: [plan, rssi] + (calibration.map { [$0] } ?? []))
            let floorPlan = try FloorPlan.load(path: plan)
            if !quiet {
                for warning in floorPlan.geometryWarnings() {
                    FileHandle.standardError.write(Data("locate: warning: \(plan): \(warning)\n".utf8))
                }
            }
            let file = try calibration.map(CalibrationFile.load(path:))
            var configuration = PositioningEngine.Configuration(
                epoch: epoch, tracking: tracker,
                sampleSigma: sampleSigma, constrainToOutline: !noOutline, recordsHistory: smooth)
            if let accelerationDensity { configuration.tracker.accelerationDensity = accelerationDensity }
            if motionModes { configuration.tracker.motionModes = MotionModes() }
            configuration.deviceOffset = offsetModel
            configuration.shadowing = shadowingModel
            configuration.idleRelease = idleRelease > 0 && !smooth ? idleRelease : nil
            if learnOnline { configuration.learning = OnlineLearning() }
            var models: [BeaconIdentity: PathLossModel] = [:]
            if selfCalibrate {
                var learning = configuration
                learning.idleRelease = nil
                let learned = try SelfCalibration(plan: floorPlan, rssi: rssi, skipBadRows: skipBadRows, start: file,
                                                  configuration: learning)
                models = learned.models
                if !quiet { FileHandle.standardError.write(Data(learned.summary.utf8)) }
            } else if let file {
                models = file.models(for: floorPlan)
            }
            var reader = try RSSISampleReader(path: rssi, skipBadRows: skipBadRows)
            let out = try OutputFile(path: output)
            out.holdsStandardOutput = true
            let writer = try FixWriter(output: out, format: format, includeDevice: reader.hasDevices,
                                       includeDeviceOffset: reportDeviceOffset, includeCovariance: covariance,
                                       includeMotion: reportMotion,
                                       plan: floorPlan)
            let progress = Progress(enabled: !quiet, path: rssi)
            var held: [PositionReport] = []
            let smooth = self.smooth  // read once: the property wrapper's getter is slow per sample
            // Read once and stream; start over (from a sorted copy, or with the reorder delay
            // the whole file needs) only when a row comes out of order.
            var pass = SampleOrder.firstPass(hasDevices: reader.hasDevices)
            var engine: PositioningEngine
            var restarted = false
            while true {
                configuration.reorderDelay = pass.reorderDelay
                engine = try PositioningEngine(plan: floorPlan, calibration: models, configuration: configuration)
                func emitReady() {
                    if smooth { held += engine.pull() } else { engine.drain(writer.write) }
                }
                if pass == .sorted {
                    var all: [RSSISample] = []
                    while let sample = try reader.next() { all.append(sample) }
                    for sample in PositioningEngine.inBatchOrder(all) {
                        engine.push(sample)
                        emitReady()
                        progress.tick(engine.statistics.accepted)
                    }
                    break
                }
                var order = SampleOrder(pass: pass, idleRelease: configuration.idleRelease)
                var next: SampleOrder.Pass?
                while let sample = try reader.next() {
                    if !order.admits(sample) {
                        next = try order.passAfterReading(reader)
                        break
                    }
                    engine.push(sample)
                    emitReady()
                    progress.tick(reader.counts.read)
                }
                guard var next else { break }
                // A second start over could only come from a file changing under us: sort.
                if restarted { next = .sorted }
                restarted = true
                guard writer.restart() else { throw LocateError.cannotStartOver(path: output ?? "-") }
                held.removeAll()
                pass = next
                reader = try RSSISampleReader(path: rssi, skipBadRows: skipBadRows)
            }
            if smooth { held += engine.finish() } else { engine.finish().forEach(writer.write) }
            if smooth { try engine.smooth(held).forEach(writer.write) }
            let summary = Summary(counts: reader.counts, statistics: engine.statistics, sorted: pass == .sorted,
                                  setApart: engine.inconsistentBeacons)
            // Nothing usable is an error, before the output is committed (no file is left).
            if engine.statistics.accepted == 0 { throw LocateError.noUsableSample(path: rssi, detail: summary.skippedText) }
            try writer.finish()
            progress.done()
            if let learned = engine.learnedModels, !quiet {
                let file = CalibrationFile(learned: learned, pooled: nil)
                FileHandle.standardError.write(Data(("learned while locating:\n"
                    + CalibrationTable(plan: floorPlan, calibration: file).text).utf8))
            }
            if !quiet { summary.print() }
        }
    }
}
