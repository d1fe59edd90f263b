import PositioningIO

/// The zones of a floor plan, by floor level, as zone scoring looks them up: the zone at a point
/// is the first zone of that floor, in plan order, whose polygon contains the point.
///
/// Containment is ``Polygon/contains(_:)``, the project's rule (the one the engine's zones use):
/// the even–odd rule of `Scripts/reference/zones.py`, except that a point within 1e-9 m of an
/// edge counts as inside. The two differ only for such boundary points: on an edge two zones
/// share, zones.py gives the point to one of them by its crossing test (for rooms with
/// axis-parallel walls, the zone to the right of or above the edge), this type to the first in
/// plan order; a point on an outer edge is in its zone here, in it or not there. Where truths or
/// fixes lie exactly on shared edges (a simulated walk through the midpoints of doors) the
/// figures can differ slightly: on `Scripts/Research/rooms-stress.py --seed 1`, held shares by
/// at most 0.2 points, one run's point-in-polygon and debounced entries and changes by 1, one
/// median latency by 0.5 s;
/// zones.py with this boundary rule gives identical figures.
public struct PlanZones: Sendable, Hashable {
    /// The zones of each level, in plan order (levels without zones are left out).
    public let zonesByLevel: [Int: [Zone]]

    /// The zones of every floor of `plan`.
    public init(plan: FloorPlan) {
        var levels: [Int: [Zone]] = [:]
        for floor in plan.floors where !floor.zones.isEmpty {
            levels[floor.level, default: []] += floor.zones
        }
        zonesByLevel = levels
    }

    /// Whether the plan has no zone at all (there is then nothing to score).
    public var isEmpty: Bool { zonesByLevel.isEmpty }

    /// The ids of every zone of every floor.
    public var ids: Set<String> { Set(zonesByLevel.values.joined().map(\.id)) }

    /// The id of the first zone of the floor at `level` containing (`x`, `y`) (metres), or ""
    /// when none does (or the level has no zones).
    public func zone(atX x: Double, y: Double, level: Int) -> String {
        guard let zones = zonesByLevel[level] else { return "" }
        let point = Point2D(x: x, y: y)
        return zones.first { $0.polygon.contains(point) }?.id ?? ""
    }
}
