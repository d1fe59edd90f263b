import BeaconModel
import Tracking
import Trilateration

/// The plan's geometry as the solver and the tracker need it, built once from the plan: the
/// receiver height, and per floor its elevation, its outline (when the map constraint is on)
/// and the solver's and tracker's settings made from them (``PlanConfiguration``).
///
/// Every height the pipeline uses comes from here: the receiver of a phone on floor L is at
///
///     z = elevation(L) + receiverHeight   (metres, building frame, z up)
///
/// which is the z of every tracked or predicted report (``position(_:onLevel:)``), the height
/// the tracker's samples are ranged from, and the planar height of the solver's fixes.
public struct FloorGeometry: Sendable, Hashable {
    /// The phone's height above its floor, metres (the plan's `PlanDefaults/receiverHeight`).
    public let receiverHeight: Double
    /// Each floor's settings, by level.
    public let floors: [Int: PlanConfiguration]

    /// The geometry of `plan`'s floors, with `solver` and `tracker` as the tuning the plan's
    /// values are written into (see ``PlanConfiguration/init(plan:floor:solver:tracker:constrainToOutline:)``).
    public init(
        plan: FloorPlan, solver: TrilaterationSolver.Configuration = TrilaterationSolver.Configuration(),
        tracker: TrackerConfiguration = TrackerConfiguration(), constrainToOutline: Bool = true
    ) {
        var floors: [Int: Floor] = [:]
        for floor in plan.floors { floors[floor.level] = floor }
        self.init(
            floors: floors, receiverHeight: plan.defaults.receiverHeight, solver: solver, tracker: tracker,
            constrainToOutline: constrainToOutline)
    }

    /// The geometry of `floors` (by level) with the receiver `receiverHeight` metres above each.
    init(
        floors: [Int: Floor], receiverHeight: Double, solver: TrilaterationSolver.Configuration,
        tracker: TrackerConfiguration, constrainToOutline: Bool, stopsAtWalls: Bool = true
    ) {
        self.receiverHeight = receiverHeight
        var elevations: [Int: Double] = [:]
        for (level, floor) in floors { elevations[level] = floor.elevation }
        var settings: [Int: PlanConfiguration] = [:]
        for (level, floor) in floors {
            settings[level] = PlanConfiguration(
                floor: floor, receiverHeight: receiverHeight, elevations: elevations,
                solver: solver, tracker: tracker,
                constrainToOutline: constrainToOutline, stopsAtWalls: stopsAtWalls)
        }
        self.floors = settings
    }

    /// The settings of the floor at `level`, if the plan has it.
    public subscript(level: Int) -> PlanConfiguration? { floors[level] }

    /// The walls of the floor at `level` (none for a level the plan does not have).
    func walls(onLevel level: Int) -> FloorWalls { floors[level]?.walls ?? .none }

    /// The receiver's elevation on the floor at `level`, metres: its elevation plus the receiver
    /// height (the receiver height alone for a level the plan does not have).
    public func receiverElevation(onLevel level: Int) -> Double {
        (floors[level]?.floorElevation ?? 0) + receiverHeight
    }

    /// A horizontal position on the floor at `level` as a point in the building frame, at the
    /// receiver's elevation there (metres).
    public func position(_ p: Point2D, onLevel level: Int) -> Point3D {
        Point3D(x: p.x, y: p.y, z: receiverElevation(onLevel: level))
    }

    /// `p` kept inside the outline of the floor at `level` as the tracker keeps its estimates
    /// (`OutlineConstraint.project(_:into:margin:)` with the tracker's margin); `p` itself
    /// when the floor has no outline or the map constraint is off. For refined positions (a
    /// lag's, the smoother's), which mix steps or bank members and so can leave a non-convex
    /// outline, or step out of it.
    public func keptInside(_ p: Point2D, onLevel level: Int) -> Point2D {
        guard let tracker = floors[level]?.tracker, let outline = tracker.outline else { return p }
        return OutlineConstraint.project(p, into: outline, margin: tracker.outlineMargin)
    }
}
