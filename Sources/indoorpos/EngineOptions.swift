import ArgumentParser
import PositioningIO

/// The engine settings `locate` and `monitor` share: epoch, tracking and its models. Their
/// ranges are checked by the engine's own `Configuration.validate()`; only what the command line
/// adds (two options that exclude each other) is checked here.
struct EngineOptions: ParsableArguments {
    @Option(
        name: .long, parsing: .unconditional, help: "Epoch length in seconds: one position per device and epoch.",
        transform: NumberArgument.parse)
    var epoch: Double = 1

    @Option(name: .long, help: "Tracking: kalman (fuse every sample at its own time) or none (one fix per epoch).")
    var tracker: PositioningEngine.TrackingMode = .kalman

    @Option(
        name: .long, parsing: .unconditional,
        help:
            "Shadowing sigma of a single RSSI sample in dB, for every beacon (default: each beacon's calibrated sigma, or 4 dB).",
        transform: NumberArgument.parse)
    var sampleSigma: Double?

    @Option(
        name: .long, parsing: .unconditional,
        help:
            "Tracker process noise: acceleration spectral density in m^2/s^3 (default 0.8 with a 2-s velocity correlation time, a walking person; lower for slow movers).",
        transform: NumberArgument.parse)
    var accelerationDensity: Double?

    @Option(
        name: .long,
        help:
            "Position of an epoch whose readings cannot determine one (fewer than four beacons) and that is reported: weighted-centroid, outline-posterior (the posterior mean over the floor outline), or detection-posterior (the default: the same with the beacons not heard as evidence, under a detection curve learned from the input's own determined fixes as the input goes; a weighted centroid until there is one; see Docs/Reference/Trilateration.md)."
    )
    var fallback: TrilaterationSolver.Fallback = .detectionPosterior

    @Flag(
        name: .long,
        help:
            "With --fallback detection-posterior: learn the detection curve from a first pass over the whole input, then position it (two passes; not causal)."
    )
    var detectionFirstPass = false

    @Flag(name: .long, help: "Do not keep positions inside the floor outline.")
    var noOutline = false

    @Option(
        name: .long, parsing: .unconditional,
        help:
            "This phone's known RSSI offset in dB against the plan's or calibration's models (0 turns the offset estimate off; default: estimated per device).",
        transform: NumberArgument.parse)
    var deviceOffset: Double?

    @Option(
        name: .long, parsing: .unconditional,
        help:
            "Prior standard deviation of the estimated device offset in dB (default: with --self-calibrate the spread of the input's devices' offsets, as its summary prints it; else 3 with --calibration, else 10).",
        transform: NumberArgument.parse)
    var deviceOffsetSigma: Double?

    @Option(
        name: .long, parsing: .unconditional,
        help:
            "Share of each sample's variance that is time-correlated shadowing, 0 to <1 (default 0.4; 0: independent samples).",
        transform: NumberArgument.parse)
    var shadowingShare: Double?

    @Option(
        name: .long, parsing: .unconditional, help: "Correlation time of the shadowing in seconds (default 5).",
        transform: NumberArgument.parse)
    var shadowingTime: Double?

    @Flag(
        name: .long,
        help:
            "Mix the motion modes standing, strolling and walking in the tracker: a steadier dot at some cost in accuracy (office walks, --self-calibrate --lag 3: drawn path 1.6x -> 1.25x the true length, RMSE 1.86 -> 1.99 m; see Docs/Reference/Tracking.md)."
    )
    var motionModes = false

    @Flag(
        name: .long, inversion: .prefixedNo,
        help:
            "Let tracked steps cross the plan's walls only through doors (the default): a step that would cross a wall is put in the door beside it or the first door of the way round, or held on its side where no door leads there. --no-stop-at-walls lets steps cross walls. Plans without walls are not affected (see Docs/Reference/Tracking.md, Walls)."
    )
    var stopAtWalls = true

    @Option(
        name: .long, parsing: .unconditional,
        help:
            "Write each position this many seconds late, refined by the samples in between (fixed-lag smoothing: a steadier, more accurate dot for a short delay; needs --tracker kalman). Default 0: as soon as its epoch closes.",
        transform: NumberArgument.parse)
    var lag: Double = 0

    func validate() throws {
        if lag != 0 && tracker == .none {
            throw ValidationError("--lag refines the tracked positions; it needs --tracker kalman")
        }
        if motionModes && tracker == .none {
            throw ValidationError("--motion-modes are modes of the tracker; they need --tracker kalman")
        }
        if detectionFirstPass && fallback != .detectionPosterior {
            throw ValidationError(
                "--detection-first-pass learns the curve of --fallback detection-posterior; it needs that fallback")
        }
        if deviceOffset != nil && deviceOffsetSigma != nil {
            throw ValidationError(
                "--device-offset sets a known offset; it cannot be combined with --device-offset-sigma")
        }
        do {
            try configuration(recordsHistory: false).validate()
        } catch {
            throw ValidationError(String(describing: error))
        }
    }

    /// The engine configuration these options ask for (`recordsHistory` for smoothing).
    func configuration(recordsHistory: Bool) -> PositioningEngine.Configuration {
        var configuration = PositioningEngine.Configuration(
            epoch: epoch, tracking: tracker,
            sampleSigma: sampleSigma, constrainToOutline: !noOutline, recordsHistory: recordsHistory)
        configuration.solver.fallback = fallback
        if let accelerationDensity { configuration.tracker.accelerationDensity = accelerationDensity }
        if motionModes { configuration.tracker.motionModes = MotionModes() }
        configuration.deviceOffset = offsetModel
        configuration.shadowing = shadowingModel
        configuration.lag = lag
        configuration.stopsAtWalls = stopAtWalls
        return configuration
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
}
