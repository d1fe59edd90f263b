/// What every device's epoch needs from the engine: settings, beacons, one solver per floor
/// (each with its outline) and the running statistics.
struct EpochContext: Sendable {
    let configuration: PositioningEngine.Configuration
    let beacons: BeaconTable
    let receiverHeight: Double
    /// The device-offset model every track starts from: the configuration's, or the default
    /// for a calibrated or an uncalibrated plan.
    let deviceOffset: DeviceOffsetModel
    /// One solver per level, in `solverLevels` order (an array, so a solve mutates in place).
    private var solvers: [TrilaterationSolver] = []
    private var solverLevels: [Int] = []
    var statistics = PositioningEngine.Statistics()
    /// The site-wide watch on beacons that keep disagreeing with the tracks (all devices).
    var consistency: BeaconConsistency

    init(configuration: PositioningEngine.Configuration, beacons: BeaconTable, receiverHeight: Double) {
        self.configuration = configuration
        self.beacons = beacons
        self.receiverHeight = receiverHeight
        deviceOffset = configuration.deviceOffset
            ?? DeviceOffsetModel(priorSigma: beacons.isCalibrated ? PositioningEngine.Configuration.calibratedOffsetSigma
                                                                  : PositioningEngine.Configuration.uncalibratedOffsetSigma)
        consistency = BeaconConsistency(levels: beacons.levels)
        var elevations: [Int: Double] = [:]
        for (level, floor) in beacons.floors { elevations[level] = floor.elevation }
        for (level, floor) in beacons.floors {
            let setup = PlanConfiguration(floor: floor, receiverHeight: receiverHeight, elevations: elevations,
                                          solver: configuration.solver, tracker: configuration.tracker,
                                          constrainToOutline: configuration.constrainToOutline)
            solverLevels.append(level)
            solvers.append(TrilaterationSolver(configuration: setup.solver))
        }
    }

    /// The outline positions on `floor` are kept inside: the floor's, unless the configuration
    /// turns the constraint off.
    func outline(of floor: Floor) -> Polygon? { Self.outline(of: floor, configuration) }

    private static func outline(of floor: Floor, _ configuration: PositioningEngine.Configuration) -> Polygon? {
        configuration.constrainToOutline ? floor.outline : nil
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

    /// Whether the beacon in `slot` is set apart as inconsistent (and the engine acts on it).
    func isSetApart(_ slot: Int) -> Bool {
        configuration.excludesInconsistentBeacons && consistency.excluded[slot]
    }

    /// Solves one epoch's fix on `level`; false when no fix at all could be made.
    mutating func solve(_ observations: [BeaconObservation], level: Int, into fix: inout Fix) -> Bool {
        guard !observations.isEmpty, let index = solverLevels.firstIndex(of: level) else { return false }
        do {
            try solvers[index].solve(observations, into: &fix)
            return fix.position.x.isFinite && fix.position.y.isFinite && fix.accuracy.isFinite
        } catch {
            return false
        }
    }
}
