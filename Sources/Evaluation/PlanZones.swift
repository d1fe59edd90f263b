import PositioningIO

/// The zones of a floor plan, by floor level, as zone scoring looks them up: the zone at a point
/// is the first zone of that floor, in plan order, whose polygon contains the point.
///
/// Containment is ``Polygon/contains(_:)``, the project's rule (the one the engine's zones use):
/// the even–odd rule, with a point within 1e-9 m of an edge inside, so that a point on the edge
/// two zones share is in the first of them in plan order. `Scripts/reference/zones.py` follows
/// the same rule, and gives the same figures.
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
