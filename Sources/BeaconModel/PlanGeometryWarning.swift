/// Something in a plan's geometry that is probably a mistake, though a working plan could have
/// it: found by ``FloorPlan/geometryWarnings(margin:)`` and shown by `indoorpos describe` and
/// on `locate`'s standard error.
///
/// These are warnings, not errors, because each has a legitimate use: a beacon in a corridor
/// the outline leaves out, a zone drawn for a neighbouring unit, a staircase level with no
/// beacons of its own. A beacon hundreds of metres away (a typo, or coordinates in another unit)
/// is reported all the same, with its distance.
public enum PlanGeometryWarning: Sendable, Hashable, CustomStringConvertible {
    /// A beacon lies `distance` metres outside its floor's outline, more than the margin.
    case beaconOutsideOutline(beacon: BeaconIdentity, level: Int, distance: Double)
    /// No point of a zone's polygon lies inside its floor's outline, and no outline point inside
    /// the zone: the zone can never contain a position kept inside the outline.
    case zoneOutsideOutline(zone: String, level: Int)
    /// A floor has fewer than three beacons: positions there rest on too few ranges (a fallback).
    case fewBeacons(level: Int, count: Int)

    public var description: String {
        func number(_ value: Double) -> String {
            let rounded = (value * 10).rounded() / 10
            return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
        }
        switch self {
        case .beaconOutsideOutline(let beacon, let level, let distance):
            return "level \(level): beacon \(beacon) is \(number(distance)) m outside the floor's outline; "
                + "check its x and y (metres, in the outline's frame)"
        case .zoneOutsideOutline(let zone, let level):
            return "level \(level): zone \(zone.quotedForMessage()) lies entirely outside the floor's outline; "
                + "no position kept inside the outline can be in it"
        case .fewBeacons(let level, let count):
            return "level \(level): \(count) beacon(s); at least three are needed for a position of its own "
                + "(with fewer, positions there are fallbacks)"
        }
    }
}

extension FloorPlan {
    /// How far outside its floor's outline a beacon may be before it is reported, metres (2: a
    /// beacon on the outer face of a wall, or an outline drawn to the inside of the walls).
    public static let beaconOutlineMargin = 2.0

    /// The plan's geometry warnings (see ``PlanGeometryWarning``), floor by floor: beacons more
    /// than `margin` metres outside their floor's outline, zones entirely outside it, and floors
    /// with fewer than three beacons.
    public func geometryWarnings(margin: Double = FloorPlan.beaconOutlineMargin) -> [PlanGeometryWarning] {
        var warnings: [PlanGeometryWarning] = []
        for floor in floors {
            if let outline = floor.outline {
                for beacon in floor.beacons {
                    let point = Point2D(x: beacon.position.x, y: beacon.position.y)
                    guard !outline.contains(point) else { continue }
                    let distance = outline.distanceToBoundary(point)
                    if distance > margin {
                        warnings.append(
                            .beaconOutsideOutline(beacon: beacon.identity, level: floor.level, distance: distance))
                    }
                }
                for zone in floor.zones
                where !zone.polygon.vertices.contains(where: outline.contains)
                    && !outline.vertices.contains(where: zone.polygon.contains)
                    && !Self.edgesCross(zone.polygon, outline)
                {
                    warnings.append(.zoneOutsideOutline(zone: zone.id, level: floor.level))
                }
            }
            if floor.beacons.count < 3 {
                warnings.append(.fewBeacons(level: floor.level, count: floor.beacons.count))
            }
        }
        return warnings
    }

    /// Whether an edge of `a` crosses an edge of `b` (two polygons can overlap with no vertex of
    /// either inside the other: a cross).
    private static func edgesCross(_ a: Polygon, _ b: Polygon) -> Bool {
        func orientation(_ p: Point2D, _ q: Point2D, _ r: Point2D) -> Double {
            (q.x - p.x) * (r.y - p.y) - (q.y - p.y) * (r.x - p.x)
        }
        for (p1, p2) in a.edges {
            for (q1, q2) in b.edges {
                let d1 = orientation(q1, q2, p1), d2 = orientation(q1, q2, p2)
                let d3 = orientation(p1, p2, q1), d4 = orientation(p1, p2, q2)
                if d1 * d2 < 0 && d3 * d4 < 0 { return true }
            }
        }
        return false
    }
}
