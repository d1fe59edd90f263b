import BeaconModel

/// Which zones of a floor a phone can walk between directly: the transitions of ``ZonePresence``.
///
/// **States.** The floor's zones in the floor's order (0 ..< n), then "none" (n: in no zone).
///
/// **Neighbours.** Zones i and j are neighbours when
/// - their polygons overlap (an edge of one crosses an edge of the other, or a vertex or the
///   vertex centroid of one lies strictly inside the other): a phone in the overlap is in both; or
/// - they touch along a stretch of boundary that a door could be in: an edge of one and an edge of
///   the other lie on one line to within ``lineTolerance`` (both ends of the second within that
///   distance of the first's line), and the part of the first edge they share, less the parts
///   that walls along the same line cover (walls within ``lineTolerance`` of it), keeps a
///   stretch of at least ``doorWidth`` in one piece. Without walls that is a shared stretch of
///   at least ``doorWidth``; when walls cover all of it but pieces shorter than ``doorWidth``,
///   the two zones are not neighbours (the way between them is round through another zone or
///   through none).
///
/// Polygons that meet at a corner only, or along less than ``doorWidth``, are not neighbours. A
/// shared stretch is looked for edge by edge (a door across a vertex that splits the shared
/// stretch counts only where one piece of it is long enough).
///
/// "None" is a neighbour of every zone (a phone can leave the zoned area from any zone, and
/// enter any zone from outside; the plan does not say where the zoned area's own doors are), so
/// a zone with no zone neighbours still has one.
///
/// Cost: O(Σ edges² + walls) per pair of zones to build, once per floor; nothing is allocated
/// by ``predict(_:stay:into:)``.
public struct ZoneAdjacency: Sendable, Hashable {
    /// Distance two edges (or an edge and a wall) may lie apart and still count as one line, and
    /// the least overlap that counts: metres. 0.25 m (a wall's thickness drawn on either side).
    public static let lineTolerance = 0.25
    /// The narrowest stretch of shared boundary, free of walls, that joins two zones, metres:
    /// 0.5 m (less than any door; more than the slack where walls drawn by hand meet).
    public static let doorWidth = 0.5

    /// The number of zones (the states are these and "none").
    public let zoneCount: Int
    /// Where each state's neighbours start in ``targets`` (count: states + 1).
    private let offsets: [Int]
    /// Each state's neighbours in increasing order, itself excluded, state after state.
    private let targets: [Int]

    /// The adjacency of `floor`'s zones, with its walls (a floor without walls: touching zones
    /// are neighbours wherever they touch).
    public init(floor: Floor) {
        let zones = floor.zones.map { $0.polygon }
        let walls = floor.walls
        let n = zones.count
        var neighbours = Array(repeating: [Int](), count: n + 1)
        for i in 0..<n {
            for j in (i + 1)..<n where Self.joined(zones[i], zones[j], walls: walls) {
                neighbours[i].append(j)
                neighbours[j].append(i)
            }
        }
        for i in 0..<n {
            neighbours[i].append(n)
            neighbours[n].append(i)
        }
        var offsets = [0]
        var targets: [Int] = []
        for list in neighbours {
            targets += list.sorted()
            offsets.append(targets.count)
        }
        self.zoneCount = n
        self.offsets = offsets
        self.targets = targets
    }

    /// The number of states: the zones and "none".
    public var stateCount: Int { zoneCount + 1 }

    /// The neighbours of `state` (a zone's index, or ``zoneCount`` for "none"), itself
    /// excluded, in increasing order.
    public func neighbours(of state: Int) -> ArraySlice<Int> {
        targets[offsets[state]..<offsets[state + 1]]
    }

    /// Whether states `a` and `b` are neighbours (a state is not its own neighbour).
    public func areNeighbours(_ a: Int, _ b: Int) -> Bool {
        neighbours(of: a).contains(b)
    }

    /// The prediction over dt seconds: state i keeps the share `stay` (e^{−dt/τ}) of its
    /// probability pᵢ, and the rest, (1 − stay) pᵢ, goes in equal parts to i itself and to each
    /// of its kᵢ neighbours:
    ///
    ///     p′ⱼ = stay · pⱼ + (1 − stay) Σ_{i = j or i ~ j} pᵢ / (kᵢ + 1)
    ///
    /// (the row-normalised adjacency-with-self matrix; Σ p′ = Σ p). `probabilities` has
    /// ``stateCount`` entries; `next` is overwritten (resized only when its count differs).
    public func predict(_ probabilities: [Double], stay: Double, into next: inout [Double]) {
        if next.count != probabilities.count {
            next = Array(repeating: 0, count: probabilities.count)
        }
        for k in next.indices { next[k] = stay * probabilities[k] }
        for i in probabilities.indices {
            let start = offsets[i], end = offsets[i + 1]
            let share = (1 - stay) * probabilities[i] / Double(end - start + 1)
            next[i] += share
            for k in start..<end { next[targets[k]] += share }
        }
    }

    /// Whether polygons `a` and `b` are neighbours, given the floor's `walls` (see the type).
    static func joined(_ a: Polygon, _ b: Polygon, walls: [Wall]) -> Bool {
        guard a.vertices.count >= 3, b.vertices.count >= 3 else { return false }
        if overlap(a, b) { return true }
        return door(along: a, to: b, walls: walls) || door(along: b, to: a, walls: walls)
    }

    /// Whether the interiors of `a` and `b` overlap: two edges cross, or a vertex (or the mean
    /// of the vertices) of one lies inside the other and off its boundary.
    static func overlap(_ a: Polygon, _ b: Polygon) -> Bool {
        for (p, q) in a.edges {
            for (r, s) in b.edges where Wall.crosses(p.x, p.y, q.x, q.y, r.x, r.y, s.x, s.y) { return true }
        }
        func strictlyInside(_ point: Point2D, _ polygon: Polygon) -> Bool {
            polygon.contains(point) && polygon.distanceToBoundary(point) > 1e-9
        }
        func centroid(_ polygon: Polygon) -> Point2D {
            var x = 0.0, y = 0.0
            for v in polygon.vertices {
                x += v.x
                y += v.y
            }
            let count = Double(polygon.vertices.count)
            return Point2D(x: x / count, y: y / count)
        }
        if a.vertices.contains(where: { strictlyInside($0, b) }) { return true }
        if b.vertices.contains(where: { strictlyInside($0, a) }) { return true }
        return strictlyInside(centroid(a), b) || strictlyInside(centroid(b), a)
    }

    /// Whether an edge of `a` shares with an edge of `b` a stretch, free of walls along it, of
    /// at least ``doorWidth`` in one piece (measured along `a`'s edge).
    static func door(along a: Polygon, to b: Polygon, walls: [Wall]) -> Bool {
        for (p, q) in a.edges {
            let length = p.distance(to: q)
            guard length >= doorWidth else { continue }
            // Unit direction u and normal n of the edge p → q.
            let ux = (q.x - p.x) / length, uy = (q.y - p.y) / length
            // The part of [0, length] (along u from p) that a segment on the same line covers.
            func cover(_ r: Point2D, _ s: Point2D) -> (Double, Double)? {
                let dr = abs(-uy * (r.x - p.x) + ux * (r.y - p.y))
                let ds = abs(-uy * (s.x - p.x) + ux * (s.y - p.y))
                guard dr <= lineTolerance, ds <= lineTolerance else { return nil }
                let tr = ux * (r.x - p.x) + uy * (r.y - p.y)
                let ts = ux * (s.x - p.x) + uy * (s.y - p.y)
                let lower = max(min(tr, ts), 0), upper = min(max(tr, ts), length)
                return upper > lower ? (lower, upper) : nil
            }
            let shared = merged(b.edges.compactMap { cover($0.0, $0.1) })
            guard !shared.isEmpty else { continue }
            let walled = merged(walls.compactMap { cover($0.from, $0.to) })
            for (lower, upper) in shared {
                // The pieces of [lower, upper] between the walls.
                var start = lower
                for (wallLower, wallUpper) in walled where wallUpper > start && wallLower < upper {
                    if wallLower - start >= doorWidth { return true }
                    start = max(start, wallUpper)
                }
                if upper - start >= doorWidth { return true }
            }
        }
        return false
    }

    /// `intervals` sorted and merged where they overlap or touch.
    static func merged(_ intervals: [(Double, Double)]) -> [(Double, Double)] {
        var result: [(Double, Double)] = []
        for (lower, upper) in intervals.sorted(by: { $0.0 < $1.0 }) {
            if let last = result.last, lower <= last.1 {
                result[result.count - 1].1 = max(last.1, upper)
            } else {
                result.append((lower, upper))
            }
        }
        return result
    }
}
