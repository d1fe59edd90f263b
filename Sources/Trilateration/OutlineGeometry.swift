import BeaconModel

/// Allocation-free point-in-polygon and nearest-boundary-point for the solver's hot path
/// (same semantics as `Polygon.contains` and `Polygon.nearestBoundaryPoint`, without the
/// lazy edge sequence).
enum OutlineGeometry {
    /// Whether `p` lies inside `vertices` or within 1e-9 m of its boundary (even–odd rule).
    static func contains(_ vertices: [Point2D], _ p: Point2D) -> Bool {
        let n = vertices.count
        guard n >= 3 else { return false }
        var inside = false
        for k in 0..<n {
            let a = vertices[k], b = vertices[(k + 1) % n]
            let q = projection(p, a, b)
            if (q.x - p.x) * (q.x - p.x) + (q.y - p.y) * (q.y - p.y) <= 1e-18 { return true }
            if (a.y > p.y) != (b.y > p.y) {
                let xCross = a.x + (p.y - a.y) / (b.y - a.y) * (b.x - a.x)
                if p.x < xCross { inside.toggle() }
            }
        }
        return inside
    }

    /// The point of the boundary of `vertices` nearest to `p`.
    static func nearestBoundaryPoint(_ vertices: [Point2D], _ p: Point2D) -> Point2D {
        let n = vertices.count
        var best = p, bestDistance = Double.infinity
        for k in 0..<n {
            let q = projection(p, vertices[k], vertices[(k + 1) % n])
            let d = (q.x - p.x) * (q.x - p.x) + (q.y - p.y) * (q.y - p.y)
            if d < bestDistance {
                bestDistance = d
                best = q
            }
        }
        return best
    }

    /// The point of segment a–b nearest to p.
    static func projection(_ p: Point2D, _ a: Point2D, _ b: Point2D) -> Point2D {
        let dx = b.x - a.x, dy = b.y - a.y
        let length2 = dx * dx + dy * dy
        guard length2 > 0 else { return a }
        let t = min(max(((p.x - a.x) * dx + (p.y - a.y) * dy) / length2, 0), 1)
        return Point2D(x: a.x + t * dx, y: a.y + t * dy)
    }
}
