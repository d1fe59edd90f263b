/// What every device's epoch needs from the engine: settings, beacons, one solver per floor
/// (each with its outline) and the running statistics.
struct EpochContext: Sendable {
    let configuration: PositioningEngine.Configuration
    let beacons: BeaconTable
    let receiverHeight: Double
    private var solvers: [Int: TrilaterationSolver] = [:]
    var statistics = PositioningEngine.Statistics()

    init(configuration: PositioningEngine.Configuration, beacons: BeaconTable, receiverHeight: Double) {
        self.configuration = configuration
        self.beacons = beacons
        self.receiverHeight = receiverHeight
        var elevations: [Int: Double] = [:]
        for (level, floor) in beacons.floors { elevations[level] = floor.elevation }
        for (level, floor) in beacons.floors {
            var solverConfiguration = configuration.solver
            solverConfiguration.dimension = .planar(receiverHeight: receiverHeight)
            solverConfiguration.floorElevations = elevations
            solverConfiguration.outline = configuration.constrainToOutline ? floor.outline : nil
            solvers[level] = TrilaterationSolver(configuration: solverConfiguration)
        }
    }

    /// Solves one epoch's fix on `level`; false when no fix at all could be made.
    mutating func solve(_ observations: [BeaconObservation], level: Int, into fix: inout Fix) -> Bool {
        guard !observations.isEmpty, var solver = solvers.removeValue(forKey: level) else { return false }
        defer { solvers[level] = solver }
        do {
            try solver.solve(observations, into: &fix)
            return fix.position.x.isFinite && fix.position.y.isFinite && fix.accuracy.isFinite
        } catch {
            return false
        }
    }
}
