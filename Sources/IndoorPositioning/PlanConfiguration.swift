/// The solver's and the tracker's settings for one floor of a plan, made in one call, so that
/// nothing the plan says has to be copied by hand: the receiver height (the plan's
/// `PlanDefaults/receiverHeight`), the floor's elevation, every level's elevation (for the
/// solver's planar height) and the floor's outline (the map constraint).
///
/// ```swift
/// let setup = try PlanConfiguration(plan: plan, level: 0)
/// var solver = TrilaterationSolver(configuration: setup.solver)
/// let fix = try solver.solve(observations)
/// var tracker = try KalmanTracker(first: PositionMeasurement(fix, time: t),
///                                 configuration: setup.tracker, floorElevation: setup.floorElevation)
/// ```
/// ``PositioningEngine`` builds its per-floor settings the same way.
public struct PlanConfiguration: Sendable, Hashable {
    /// The floor the settings are for.
    public let level: Int
    /// The floor's elevation, metres (building frame, z up).
    public let floorElevation: Double
    /// The phone's height above its floor, metres (from the plan).
    public let receiverHeight: Double
    /// The outline positions are kept inside, if the floor has one and the constraint is on.
    public let outline: Polygon?
    /// The floor's walls: their losses enter every beacon's expected RSSI (the multi-wall
    /// model, `FloorWalls`), and tracked steps do not cross them. A wall without an
    /// attenuation takes `PlanDefaults.standardWallAttenuation` here (``PositioningEngine``
    /// fills in the plan's default first).
    public let walls: FloorWalls
    /// The solver's settings: `base` with a planar dimension at the plan's receiver height,
    /// every level's elevation and the outline.
    public var solver: TrilaterationSolver.Configuration
    /// The tracker's settings: `base` with the plan's receiver height and the outline.
    public var tracker: TrackerConfiguration

    /// Settings for `floor` of `plan`.
    /// - Parameters:
    ///   - plan: the building; its defaults give the receiver height, its floors the elevations.
    ///   - floor: the floor positions will be on (normally one of `plan.floors`).
    ///   - solver: the solver tuning to start from (estimator, outlier test, …); its dimension,
    ///     floor elevations and outline are replaced.
    ///   - tracker: the tracker tuning to start from; its receiver height and outline are replaced.
    ///   - constrainToOutline: keep positions inside the floor's outline when it has one.
    public init(
        plan: FloorPlan, floor: Floor,
        solver: TrilaterationSolver.Configuration = TrilaterationSolver.Configuration(),
        tracker: TrackerConfiguration = TrackerConfiguration(),
        constrainToOutline: Bool = true
    ) {
        var elevations: [Int: Double] = [:]
        for other in plan.floors { elevations[other.level] = other.elevation }
        self.init(
            floor: plan.defaults.resolvingWalls(of: floor), receiverHeight: plan.defaults.receiverHeight,
            elevations: elevations,
            solver: solver, tracker: tracker, constrainToOutline: constrainToOutline)
    }

    /// The one place that copies the plan's values into the two configurations.
    init(
        floor: Floor, receiverHeight: Double, elevations: [Int: Double],
        solver: TrilaterationSolver.Configuration, tracker: TrackerConfiguration, constrainToOutline: Bool,
        stopsAtWalls: Bool = true
    ) {
        level = floor.level
        floorElevation = floor.elevation
        self.receiverHeight = receiverHeight
        outline = constrainToOutline ? floor.outline : nil
        walls = FloorWalls(floor.walls, attenuation: PlanDefaults.standardWallAttenuation)
        var elevations = elevations
        // Written only when it differs: the engine passes one table with every floor in it, and
        // a write would copy it per floor (memory quadratic in the number of floors).
        if elevations[floor.level] != floor.elevation { elevations[floor.level] = floor.elevation }
        self.solver = solver
        self.solver.dimension = .planar(receiverHeight: receiverHeight)
        self.solver.floorElevations = elevations
        self.solver.outline = outline
        // Every beacon of the floor, in the building frame as observations give them, for the
        // detection posterior's beacons not heard.
        self.solver.detectionBeacons = floor.beacons.map {
            Point3D(x: $0.position.x, y: $0.position.y, z: floor.elevation + $0.position.z)
        }
        self.tracker = tracker
        self.tracker.receiverHeight = receiverHeight
        self.tracker.outline = outline
        // Steps cross walls only through doors unless told otherwise (Docs/Reference/Tracking.md,
        // "Walls").
        self.tracker.walls = stopsAtWalls && !walls.isEmpty ? walls : nil
    }

    /// Settings for the floor at `level` of `plan` (see ``init(plan:floor:solver:tracker:constrainToOutline:)``).
    /// - Throws: ``PositioningError/invalidConfiguration(_:)`` naming the plan's levels when
    ///   it has no floor at `level`.
    public init(
        plan: FloorPlan, level: Int,
        solver: TrilaterationSolver.Configuration = TrilaterationSolver.Configuration(),
        tracker: TrackerConfiguration = TrackerConfiguration(),
        constrainToOutline: Bool = true
    ) throws(PositioningError) {
        guard let floor = plan.floor(level: level) else {
            let levels = plan.floors.map { String($0.level) }.joined(separator: ", ")
            throw .invalidConfiguration(
                "the plan '\(plan.name)' has no floor at level \(level); its levels are \(levels)")
        }
        self.init(plan: plan, floor: floor, solver: solver, tracker: tracker, constrainToOutline: constrainToOutline)
    }

}
