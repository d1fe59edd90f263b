import ArgumentParser
import Foundation
import PositioningIO

/// Where the beacons' path-loss models come from, for `locate` and `monitor` alike: the plan's
/// values, a calibration file, learned from the input first (`--self-calibrate`), or learned
/// while positioning (`--learn-online`).
struct ModelOptions: ParsableArguments {
    @Option(name: .long, help: "Calibration JSON from 'indoorpos calibrate': per-beacon values override the plan's.")
    var calibration: String?

    @Flag(
        name: .long,
        help:
            "Learn every beacon's path-loss model from this input first (as 'calibrate --from-traffic' does, starting from --calibration if given), then position with the learned models. Reads the input more than once."
    )
    var selfCalibrate = false

    @Flag(
        name: .long,
        help:
            "Learn every beacon's path-loss model while positioning, from the well-determined epochs so far, and use the learned models from then on (updated every minute of input time; for a live feed in time order)."
    )
    var learnOnline = false

    @Flag(name: .long, help: "With --self-calibrate: list every device's learned offset, however many.")
    var verbose = false

    func validate() throws {
        if learnOnline && selfCalibrate {
            throw ValidationError("--learn-online and --self-calibrate are two ways to learn the models; choose one")
        }
    }

    /// The checks against the engine's options: online learning learns from tracked epochs, so
    /// with `--tracker none` it would learn nothing (`--self-calibrate` learns with the tracker
    /// whatever `--tracker` says, and then positions as it says).
    func validate(with engine: EngineOptions) throws {
        if learnOnline && engine.tracker == .none {
            throw ValidationError("--learn-online learns from the tracked positions; it needs --tracker kalman")
        }
    }

    /// The calibration file, as an input that no output may overwrite.
    var inputs: [String] { calibration.map { [$0] } ?? [] }

    /// The models to position with: learned from the samples at `rssi` (with `--self-calibrate`;
    /// its summary goes to standard error unless `quiet`), else the calibration file's, else none
    /// (the plan's values). `configuration` is the engine's; online learning and what the
    /// calibration states (the models' uncertainty, the place variance, the loss of the walls
    /// the plan gives none, the device-offset prior its traffic's devices support unless the
    /// options set the offset) are set on it here.
    func models(
        plan: FloorPlan, rssi: String, skipBadRows: Bool, configuration: inout PositioningEngine.Configuration,
        quiet: Bool
    ) throws -> [BeaconIdentity: PathLossModel] {
        // A file that fits none of the plan's beacons is refused, except as the start of
        // self-calibration, which says so and starts from the plan (as calibrate --from-traffic).
        let file = try calibration.map { path throws(CalibrationFileError) in
            selfCalibrate ? try CalibrationFile.load(path: path) : try CalibrationFile.load(path: path, for: plan)
        }
        if learnOnline { configuration.learning = OnlineLearning() }
        guard selfCalibrate else { return Self.use(file, plan: plan, configuration: &configuration) }
        var learning = configuration
        learning.idleRelease = nil
        let learned = try SelfCalibration(
            plan: plan, rssi: rssi, skipBadRows: skipBadRows, start: file, configuration: learning)
        if !quiet { FileHandle.standardError.write(Data(learned.summary(verbose: verbose).utf8)) }
        // As if the learned file had been given: the same models and settings.
        return Self.use(learned.file, plan: plan, configuration: &configuration)
    }

    /// The models of `file` for `plan`'s beacons (none without a file: the plan's values), with
    /// what the file states set on `configuration` (`CalibrationFile.configure(_:for:)`): the
    /// models' uncertainty, the place variance, the learned loss of the walls the plan gives
    /// none, and the device-offset prior its devices support unless the options set the offset.
    private static func use(
        _ file: CalibrationFile?, plan: FloorPlan, configuration: inout PositioningEngine.Configuration
    ) -> [BeaconIdentity: PathLossModel] {
        guard let file else { return [:] }
        file.configure(&configuration, for: plan)
        return file.models(for: plan)
    }
}
