/// What the engine fixes when it starts and never changes: its settings, the plan's geometry
/// (one ``FloorGeometry``) and the device-offset model every track starts from. The mutable
/// state of a running engine (beacon models that learning updates, solvers' scratch space,
/// statistics, the consistency watch, the learner) is ``EpochContext``'s.
struct EngineSite: Sendable {
    /// The engine's settings.
    let configuration: PositioningEngine.Configuration
    /// The plan's geometry: receiver height, and per floor the solver's and tracker's settings
    /// (the tracker's with the engine's history recording).
    let geometry: FloorGeometry
    /// The device-offset model every track starts from: the configuration's, or the default
    /// for a calibrated or an uncalibrated plan.
    let deviceOffset: DeviceOffsetModel
    /// Whether the engine learns its detection curve (``PositioningEngine/Configuration/learnsDetection``
    /// and a floor with an outline to put the posterior on: without one every fallback is a
    /// weighted centroid, and learning would only cost).
    let learnsDetection: Bool
    /// Whether determined fixes record their detections (the configuration asks for them, or
    /// the engine learns its detection curve).
    let recordsDetections: Bool
    /// Per floor with walls: the grid its fixes start from (``WallGrid``).
    let wallGrids: [Int: WallGrid]
    /// Per floor with zones: which zones a phone moves between (the zone rule's transitions),
    /// built once here rather than by each device's estimate.
    let zoneAdjacency: [Int: ZoneAdjacency]

    init(configuration: PositioningEngine.Configuration, beacons: BeaconTable, receiverHeight: Double) {
        self.configuration = configuration
        var tracker = configuration.tracker
        // Fixed-lag smoothing records the steps of its window (and discards older ones).
        tracker.recordsHistory = configuration.recordsHistory || configuration.lag > 0
        let deviceOffset =
            configuration.deviceOffset
            ?? DeviceOffsetModel(
                priorSigma: beacons.isCalibrated
                    ? PositioningEngine.Configuration.calibratedOffsetSigma
                    : PositioningEngine.Configuration.uncalibratedOffsetSigma)
        self.deviceOffset = deviceOffset
        // Each epoch's fix estimates the device's offset with its position when the offset is
        // unknown (the same prior as the track's), unless the solver settings say otherwise.
        var solver = configuration.solver
        if solver.commonOffsetSigma == nil { solver.commonOffsetSigma = deviceOffset.priorSigma }
        geometry = FloorGeometry(
            floors: beacons.floors, receiverHeight: receiverHeight, solver: solver,
            tracker: tracker, constrainToOutline: configuration.constrainToOutline,
            stopsAtWalls: configuration.stopsAtWalls)
        var grids: [Int: WallGrid] = [:]
        for (level, setup) in geometry.floors where !setup.walls.isEmpty {
            grids[level] = WallGrid(
                walls: setup.walls, outline: beacons.floors[level]?.outline, level: level,
                receiverZ: geometry.receiverElevation(onLevel: level), beacons: beacons)
        }
        wallGrids = grids
        zoneAdjacency = beacons.floors.filter { !$0.value.zones.isEmpty }.mapValues { ZoneAdjacency(floor: $0) }
        learnsDetection = configuration.learnsDetection && geometry.floors.values.contains { $0.solver.outline != nil }
        recordsDetections = configuration.recordsDetections || learnsDetection
    }
}
