import BeaconModel

/// Projection of a point into a floor outline, used by the tracker and the smoother to keep
/// estimates inside the building.
public enum OutlineConstraint {
    /// `point` itself when it lies inside `outline`; otherwise the nearest boundary point moved
    /// `margin` metres further inwards (along the direction from `point` to the boundary), or
    /// the boundary point itself when that step would leave the polygon (a narrow part).
    public static func project(_ point: Point2D, into outline: Polygon, margin: Double) -> Point2D {
        guard outline.vertices.count >= 3, !outline.contains(point) else { return point }
        let nearest = outline.nearestBoundaryPoint(to: point)
        guard nearest.distance > 0, nearest.distance.isFinite else { return nearest.point }
        let ux = (nearest.point.x - point.x) / nearest.distance
        let uy = (nearest.point.y - point.y) / nearest.distance
        let inside = Point2D(x: nearest.point.x + margin * ux, y: nearest.point.y + margin * uy)
        return outline.contains(inside) ? inside : nearest.point
    }
}
