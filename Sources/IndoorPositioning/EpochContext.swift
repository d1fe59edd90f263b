import LinearAlgebra

/// What every device's epoch needs from the engine: the fixed site (``EngineSite``), and the
/// engine's mutable state: the beacons' models (which online learning updates), one solver per
/// floor (each with its scratch space), the running statistics, the consistency watch and the
/// learner.
struct EpochContext: Sendable {
    /// What does not change while the engine runs.
    let site: EngineSite
    private(set) var beacons: BeaconTable
    /// The engine's settings (``EngineSite/configuration``).
    var configuration: PositioningEngine.Configuration { site.configuration }
    /// The plan's geometry (``EngineSite/geometry``).
    var geometry: FloorGeometry { site.geometry }
    /// The device-offset model every track starts from (``EngineSite/deviceOffset``).
    var deviceOffset: DeviceOffsetModel { site.deviceOffset }
    /// One solver per level, in `solverLevels` order (an array, so a solve mutates in place).
    private var solvers: [TrilaterationSolver] = []
    private var solverLevels: [Int] = []
    var statistics = PositioningEngine.Statistics()
    /// Fixed-lag smoothing's scratch space and estimates, shared by every device (one device's
    /// epoch is closed at a time).
    var lagWorkspace = TrackerBank.WindowWorkspace()
    var lagEstimates: [TrackEstimate] = []
    /// The epoch update's scratch space, lent to each device's trackers for its epoch (one
    /// device's epoch is closed at a time).
    var trackerScratch = TrackerScratch()
    /// The site-wide watch on beacons that keep disagreeing with the tracks (all devices).
    var consistency: BeaconConsistency
    /// The online learner of path-loss models (``PositioningEngine/Configuration/learning``),
    /// its beacons in table order.
    private(set) var learner: SiteCalibrator?
    /// The input time at which the learned models are next taken into the table.
    private var nextModelUpdate = -Double.infinity
    /// The detection curve learned from the traffic so far
    /// (``PositioningEngine/Configuration/learnsDetection``).
    private(set) var learnedDetection = LearnedDetection()
    /// The determined fixes recorded at which the detection curve is fitted next.
    private var nextDetectionFit = PositioningEngine.Configuration.detectionFitSchedule.first
    /// Where the effects of epochs on the watch and the learner go instead of being applied, in
    /// a worker of a sharded run (nil: applied at once).
    var recording: CrossDeviceEffects?

    init(configuration: PositioningEngine.Configuration, beacons: BeaconTable, receiverHeight: Double) {
        site = EngineSite(configuration: configuration, beacons: beacons, receiverHeight: receiverHeight)
        self.beacons = beacons
        consistency = BeaconConsistency(levels: beacons.levels)
        if let learning = configuration.learning {
            learner = SiteCalibrator(
                beacons: (0..<beacons.count).map { slot in
                    let entry = beacons[slot]
                    let prior =
                        beacons.isCalibrated
                        ? PathLossPrior.surveyed(entry.model) : PathLossPrior(centredOn: entry.model)
                    return (entry.beacon.identity, entry.beacon.position, prior)
                },
                settings: learning.calibrator)
        }
        for (level, setup) in geometry.floors {
            solverLevels.append(level)
            solvers.append(TrilaterationSolver(configuration: setup.solver))
        }
    }

    /// The shadowing models of the tracker bank on `level`: the configured one (with at most as
    /// many bias states as the floor has beacons) beside independent samples, or only the
    /// latter when the configuration turns shadowing off.
    func shadowingModels(onLevel level: Int) -> [ShadowingModel] {
        var correlated = configuration.shadowing
        guard correlated.correlatedShare > 0, correlated.maximumStates > 0 else { return [.independent] }
        correlated.maximumStates = min(correlated.maximumStates, beacons.count(onLevel: level))
        return [.independent, correlated]
    }

    /// Feeds one tracked epoch to the online learner: the samples of beacons on `level` (set-apart
    /// beacons too: the watch flags the misfit that learning removes), heard at `receiver` with horizontal covariance `covariance` by a device whose
    /// offset is `offset` dB. Nothing happens without learning or when the position is too
    /// uncertain. The samples count without a position leverage
    /// (`SiteCalibrator.observe(…positionFromReadings: false)`): the tracker weighs them with
    /// λσ², λ its learned noise scale (up to 4), so k²gᵀΣg/σ² would overstate how far the
    /// position followed them (measured: kolakowski-flat `--learn-online` 1.98 → 2.70 m with it).
    mutating func learn<S: Sequence>(
        _ samples: S, level: Int, receiver: Point3D, covariance: PositionCovariance,
        offset: Double
    ) where S.Element == (slot: Int, rssi: Double) {
        guard learner != nil, let learning = configuration.learning,
            covariance.horizontalRadius <= learning.maximumAccuracy
        else { return }
        let walls = geometry.walls(onLevel: level)
        for (slot, sample) in samples where beacons[slot].beacon.level == level {
            // The learner fits P₀ and n: the walls' loss between beacon and receiver is put back.
            let b = beacons[slot].beacon.position
            let rssi = walls.isEmpty ? sample : sample + walls.loss(b.x, b.y, receiver.x, receiver.y)
            if recording != nil {
                recording?.learn(
                    slot: slot, rssi: rssi, receiver: receiver, xx: covariance.xx, xy: covariance.xy,
                    yy: covariance.yy, deviceOffset: offset)
            } else {
                learner?.observe(
                    slot: slot, rssi: rssi, receiver: receiver, xx: covariance.xx, xy: covariance.xy,
                    yy: covariance.yy, deviceOffset: offset, positionFromReadings: false)
            }
        }
    }

    /// Teaches the learner one sample recorded by a worker (see ``CrossDeviceEffects``).
    mutating func observe(_ lesson: CrossDeviceEffects.Lesson) {
        learner?.observe(
            slot: lesson.slot, rssi: lesson.rssi, receiver: lesson.receiver, xx: lesson.xx, xy: lesson.xy,
            yy: lesson.yy, deviceOffset: lesson.deviceOffset, positionFromReadings: false)
    }

    /// Scores a beacon heard in a tracked epoch for the consistency watch (recorded instead in a
    /// worker of a sharded run).
    mutating func score(slot: Int, normalizedSquaredResidual u: Double) {
        if recording != nil {
            recording?.score(slot: slot, normalizedSquaredResidual: u)
        } else {
            consistency.record(slot: slot, normalizedSquaredResidual: u)
        }
    }

    /// Lets the consistency watch re-decide after an epoch's scores (recorded instead in a
    /// worker of a sharded run).
    mutating func decideConsistency() {
        if recording != nil {
            recording?.decide()
        } else {
            // Only beacons with a measured model can be set apart (BeaconConsistency).
            let entries = beacons.entries
            consistency.decide { entries[$0].isMeasured }
        }
    }

    /// Takes the site-wide state a coordinator keeps (the watch's decisions `consistency`, and
    /// the beacons' models in force when `beacons` is given) value by value into this context's
    /// own storage: a worker thread must not share a buffer with another (their reference
    /// counts would bounce between cores on every read).
    mutating func adoptShared(consistency shared: BeaconConsistency, beacons table: BeaconTable?) {
        consistency.copyState(from: shared)
        if let table { beacons.copyModels(from: table) }
    }

    /// Takes the learned models into the table when the update time has come (input time
    /// `clock`, seconds); the learner then weighs samples with them.
    mutating func updateModels(at clock: Double) {
        guard learner != nil, let learning = configuration.learning, clock >= nextModelUpdate else { return }
        let first = nextModelUpdate == -.infinity
        nextModelUpdate = clock + learning.updateInterval
        guard !first else { return }
        adoptLearnedModels()
    }

    /// Adds a saved learner's statistics to the learner and takes the learned models into use.
    mutating func resumeLearning(from saved: SiteCalibrator) {
        learner?.merge(saved)
        adoptLearnedModels()
    }

    /// The beacons learned from traffic get their learned models in the table, with their
    /// standard errors as the models' stated uncertainty (the radius's consider term); the
    /// learner weighs the next samples with them.
    private mutating func adoptLearnedModels() {
        guard var learner else { return }
        for (slot, estimate) in learner.estimates.enumerated() where estimate.source == .traffic {
            beacons.setModel(estimate.model, uncertainty: estimate.uncertainty, slot: slot)
        }
        statistics.learnedModelUpdates += 1
        learner.adoptEstimates()
        self.learner = learner
    }

    /// Whether the engine learns its detection curve and, with `fixes` determined fixes recorded
    /// and `fallbacks` fallback fixes reported, a fit is due: the fixes reached the
    /// schedule's next count (``PositioningEngine/Configuration/detectionFitSchedule``) and a
    /// fallback has been reported (before that no report needs a curve, and traffic that
    /// always determines its fixes never pays for one).
    func detectionFitIsDue(fixes: Int, fallbacks: Int) -> Bool {
        site.learnsDetection && fixes >= nextDetectionFit && fallbacks > 0
    }

    /// Fits the detection curve from `scans` (every determined fix recorded so far, in a bounded
    /// sample) and, when the fit gives one, hands it to every floor's solver with the fixes'
    /// variance factor `varianceFactor` (at least 1; nil: 1). A failed fit keeps the curve in use.
    mutating func fitDetection(from scans: DetectionScans, varianceFactor: Double?) {
        let schedule = PositioningEngine.Configuration.detectionFitSchedule
        while nextDetectionFit <= scans.fixes { nextDetectionFit *= schedule.growth }
        learnedDetection.fits += 1
        switch scans.fit(from: learnedDetection.model) {
        case .success(let model):
            learnedDetection.model = model
            learnedDetection.shortfall = nil
            learnedDetection.fixes = scans.fixes
            learnedDetection.varianceFactor = max(1, varianceFactor ?? 1)
            adoptDetection(learnedDetection)
        case .failure(let shortfall):
            learnedDetection.shortfall = shortfall
        }
    }

    /// Takes a coordinator's learned curve (a worker of a sharded run): its solvers use it from now on.
    mutating func adoptDetection(_ learned: LearnedDetection) {
        learnedDetection = learned
        guard let model = learned.model else { return }
        for k in solvers.indices {
            solvers[k].configuration.detection = model
            solvers[k].configuration.fallbackVarianceFactor = learned.varianceFactor
        }
    }

    /// Replaces the determined fix just solved on `level` from `observations` (offset `offset`
    /// dB taken out) by the detection posterior's mean and covariance with the centroid prior,
    /// when that level's solver has a detection curve (`TrilaterationSolver.refineWithDetectionPosterior`).
    mutating func refineWithDetection(
        _ observations: [BeaconObservation], level: Int, offset: Double, into fix: inout Fix
    ) {
        guard let index = solverLevels.firstIndex(of: level) else { return }
        solvers[index].refineWithDetectionPosterior(observations, offsetTakenOut: offset, into: &fix)
    }

    /// Whether the beacon in `slot` is set apart as inconsistent (and the engine acts on it).
    func isSetApart(_ slot: Int) -> Bool {
        configuration.excludesInconsistentBeacons && consistency.excluded[slot]
    }

    /// Solves one epoch's fix on `level` (from means with the device offset `offset` dB taken
    /// out); false when no fix at all could be made. `reported`:
    /// whether a fallback fix would be the epoch's report (only then does the solver's
    /// configured fallback apply; otherwise it is the weighted centroid, which costs nothing).
    mutating func solve(
        _ observations: [BeaconObservation], level: Int, offset: Double, into fix: inout Fix, reported: Bool
    ) -> Bool {
        guard !observations.isEmpty, let index = solverLevels.firstIndex(of: level) else { return false }
        do {
            // A posterior is worth its cost only for a fallback fix that is reported.
            let configured = solvers[index].configuration.fallback
            try solvers[index].solve(
                observations, into: &fix, fallback: reported ? configured : .weightedCentroid, offsetTakenOut: offset)
            return fix.position.x.isFinite && fix.position.y.isFinite && fix.accuracy.isFinite
        } catch {
            return false
        }
    }
}
