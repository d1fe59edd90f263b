/// A simple polygon on a floor, given by its vertices in order (not closed: the last vertex
/// connects back to the first). Coordinates in metres.
public struct Polygon: Sendable, Hashable, Codable {
    /// The vertices, in order, at least three for a valid polygon.
    public var vertices: [Point2D]

    /// The most vertices a plan polygon may have, a guard against hostile files: checking
    /// simplicity is O(n²) at worst. A building outline rarely needs more than a few hundred.
    public static let maximumVertexCount = 10_000

    /// A polygon from its vertices in order, metres. Not validated here: ``FloorPlan`` checks
    /// that plan polygons have at least three vertices and are simple.
    public init(_ vertices: [Point2D]) {
        self.vertices = vertices
    }

    /// The edges as (start, end) pairs, closing back to the first vertex.
    public var edges: some Sequence<(Point2D, Point2D)> {
        let v = vertices
        return v.indices.lazy.map { i in (v[i], v[(i + 1) % v.count]) }
    }

    /// Signed area by the shoelace formula, m²: positive when the vertices run
    /// counter-clockwise.
    public var signedArea: Double {
        var sum = 0.0
        for (a, b) in edges { sum += a.x * b.y - b.x * a.y }
        return sum / 2
    }

    /// Area, m².
    public var area: Double { abs(signedArea) }

    /// Whether every vertex lies on the line through the first vertex and the one farthest from
    /// it, to within 10⁻⁹ of that distance (or all vertices coincide): such a polygon encloses
    /// no area, whatever its order.
    public var isCollinear: Bool {
        guard let first = vertices.first else { return true }
        var far = first, reach = 0.0
        for v in vertices {
            let d = (v.x - first.x) * (v.x - first.x) + (v.y - first.y) * (v.y - first.y)
            if d > reach { (far, reach) = (v, d) }
        }
        guard reach > 0 else { return true }
        let dx = far.x - first.x, dy = far.y - first.y
        for v in vertices where abs((v.x - first.x) * dy - (v.y - first.y) * dx) > 1e-9 * reach {
            return false
        }
        return true
    }

    /// Whether `point` lies inside the polygon or on its boundary (even–odd rule).
    public func contains(_ point: Point2D) -> Bool {
        guard vertices.count >= 3 else { return false }
        var inside = false
        for (a, b) in edges {
            if Self.segmentDistance(point, a, b) <= 1e-9 { return true }
            if (a.y > point.y) != (b.y > point.y) {
                let xCross = a.x + (point.y - a.y) / (b.y - a.y) * (b.x - a.x)
                if point.x < xCross { inside.toggle() }
            }
        }
        return inside
    }

    /// Distance from `point` to the nearest point of the boundary, metres (0 on the boundary,
    /// positive inside and outside alike).
    public func distanceToBoundary(_ point: Point2D) -> Double {
        nearestBoundaryPoint(to: point).distance
    }

    /// The point of the boundary nearest to `point`, with its distance in metres.
    public func nearestBoundaryPoint(to point: Point2D) -> (point: Point2D, distance: Double) {
        var best = (point: point, distance: Double.infinity)
        for (a, b) in edges {
            let q = Self.projection(point, a, b)
            let d = q.distance(to: point)
            if d < best.distance { best = (q, d) }
        }
        return best
    }

    /// Whether the polygon is not simple: two non-adjacent edges cross or touch, or two
    /// consecutive vertices coincide. O(n log n + k) for k pairs of edges whose x-extents
    /// overlap, O(n²) at worst.
    public var isSelfIntersecting: Bool { selfIntersection() != nil }

    /// The first defect that makes the polygon not simple, as a pair of edge indices (edge k
    /// joins vertex k to vertex k + 1, the last edge closes back to vertex 0), or nil for a
    /// simple polygon. Equal indices mean that edge has zero length (a repeated vertex).
    /// Polygons with fewer than three vertices give nil (they fail a different check);
    /// coordinates must be finite (plan validation checks them first).
    /// O(n log n + k) for k pairs of edges whose x-extents overlap, O(n²) at worst.
    public func selfIntersection() -> (edge: Int, otherEdge: Int)? {
        let n = vertices.count
        guard n >= 3 else { return nil }
        for i in 0..<n where vertices[i] == vertices[(i + 1) % n] { return (i, i) }
        // Adjacent edges that fold back onto each other (a spike of zero width) overlap.
        for i in 0..<n {
            let a = vertices[i], b = vertices[(i + 1) % n], c = vertices[(i + 2) % n]
            let cross = (b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x)
            let dot = (b.x - a.x) * (c.x - b.x) + (b.y - a.y) * (c.y - b.y)
            if cross == 0 && dot < 0 { return (i, (i + 1) % n) }
        }
        // Sort-and-sweep on x: only edges whose x-extents overlap can cross, so sort the edges
        // by their left end and compare each with the edges starting before its right end.
        let minX = (0..<n).map { Swift.min(vertices[$0].x, vertices[($0 + 1) % n].x) }
        let maxX = (0..<n).map { Swift.max(vertices[$0].x, vertices[($0 + 1) % n].x) }
        let order = (0..<n).sorted { (minX[$0], $0) < (minX[$1], $1) }
        var found: (edge: Int, otherEdge: Int)?
        for (position, i) in order.enumerated() {
            for j in order[(position + 1)...] {
                if minX[j] > maxX[i] { break }
                // Skip adjacent edges (they share a vertex by construction).
                if abs(i - j) == 1 || abs(i - j) == n - 1 { continue }
                if Self.segmentsIntersect(
                    vertices[i], vertices[(i + 1) % n],
                    vertices[j], vertices[(j + 1) % n])
                {
                    let pair = (edge: Swift.min(i, j), otherEdge: Swift.max(i, j))
                    // Report the lowest pair, so the answer does not depend on the sweep order.
                    if found.map({ (pair.edge, pair.otherEdge) < ($0.edge, $0.otherEdge) }) ?? true { found = pair }
                }
            }
        }
        return found
    }

    static func projection(_ p: Point2D, _ a: Point2D, _ b: Point2D) -> Point2D {
        let dx = b.x - a.x, dy = b.y - a.y
        let length2 = dx * dx + dy * dy
        guard length2 > 0 else { return a }
        let t = min(1, max(0, ((p.x - a.x) * dx + (p.y - a.y) * dy) / length2))
        return Point2D(x: a.x + t * dx, y: a.y + t * dy)
    }

    static func segmentDistance(_ p: Point2D, _ a: Point2D, _ b: Point2D) -> Double {
        projection(p, a, b).distance(to: p)
    }

    static func segmentsIntersect(_ p1: Point2D, _ p2: Point2D, _ q1: Point2D, _ q2: Point2D) -> Bool {
        func orientation(_ a: Point2D, _ b: Point2D, _ c: Point2D) -> Double {
            (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
        }
        func onSegment(_ a: Point2D, _ b: Point2D, _ c: Point2D) -> Bool {
            min(a.x, b.x) <= c.x && c.x <= max(a.x, b.x) && min(a.y, b.y) <= c.y && c.y <= max(a.y, b.y)
        }
        let d1 = orientation(q1, q2, p1), d2 = orientation(q1, q2, p2)
        let d3 = orientation(p1, p2, q1), d4 = orientation(p1, p2, q2)
        if ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)) {
            return true
        }
        if d1 == 0 && onSegment(q1, q2, p1) { return true }
        if d2 == 0 && onSegment(q1, q2, p2) { return true }
        if d3 == 0 && onSegment(p1, p2, q1) { return true }
        if d4 == 0 && onSegment(p1, p2, q2) { return true }
        return false
    }
}
