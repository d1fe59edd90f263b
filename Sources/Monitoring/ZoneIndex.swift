import BeaconModel

/// The plan's zone polygons by id and level, for signed depths.
struct ZoneIndex: Sendable {
    fileprivate var polygons: [String: [Int: Polygon]] = [:]
    /// The plan's floor levels.
    private var levelSet: Set<Int> = []

    init(plan: FloorPlan) {
        for floor in plan.floors {
            levelSet.insert(floor.level)
            for zone in floor.zones { polygons[zone.id, default: [:]][floor.level] = zone.polygon }
        }
    }

    /// Whether the plan has a floor at `level`.
    func hasLevel(_ level: Int) -> Bool { levelSet.contains(level) }

    /// The plan's floor levels, ascending.
    var levels: [Int] { levelSet.sorted() }

    /// Whether some floor has a zone `id`.
    func contains(_ id: String) -> Bool { polygons[id] != nil }

    /// Whether the floor at `level` has a zone `id`.
    func contains(_ id: String, level: Int) -> Bool { polygons[id]?[level] != nil }

    /// Signed depth of `point` in zone `id` of `level`, metres: the distance to the polygon's
    /// boundary, positive inside; −∞ when that floor has no such zone.
    func depth(of point: Point2D, inZone id: String, level: Int) -> Double {
        guard let polygon = polygons[id]?[level] else { return -.infinity }
        return Self.depth(of: point, in: polygon)
    }

    /// Signed depth of `point` in `polygon`, metres (positive inside, negative outside).
    static func depth(of point: Point2D, in polygon: Polygon) -> Double {
        let distance = polygon.distanceToBoundary(point)
        return polygon.contains(point) ? distance : -distance
    }
}

extension ZoneIndex {
    /// The polygons of zone `id` by level.
    func polygons(of id: String) -> [Int: Polygon] { polygons[id] ?? [:] }
}
