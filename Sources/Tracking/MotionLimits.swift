import BeaconModel

/// The physical limits a tracker imposes on its estimate: a walker's top speed, the
/// building's outline and its walls.
struct MotionLimits: Sendable {
    /// Largest speed, m/s.
    var maximumSpeed: Double
    /// The outline to keep the position inside, if any.
    var outline: Polygon?
    /// How far inside the outline a projected position is placed, metres.
    var margin: Double
    /// The walls a step does not cross (empty: none).
    var walls: FloorWalls = .none

    /// `velocity` scaled down to ``maximumSpeed`` when it is faster.
    func limitSpeed(_ velocity: Point2D) -> Point2D {
        let v2 = velocity.x * velocity.x + velocity.y * velocity.y
        guard v2 > maximumSpeed * maximumSpeed else { return velocity }
        let scale = maximumSpeed / v2.squareRoot()
        return Point2D(x: velocity.x * scale, y: velocity.y * scale)
    }

    /// A position outside the outline moved to the nearest boundary point plus ``margin``
    /// inwards (``OutlineConstraint/project(_:into:margin:)``), and the velocity without its
    /// outward component; a position inside (or no outline) is returned as it is.
    func keep(position: Point2D, velocity: Point2D) -> (Point2D, Point2D) {
        guard let outline, !outline.contains(position) else { return (position, velocity) }
        let projected = OutlineConstraint.project(position, into: outline, margin: margin)
        let nx = projected.x - position.x, ny = projected.y - position.y
        let length = (nx * nx + ny * ny).squareRoot()
        guard length > 0 else { return (projected, velocity) }
        let ux = nx / length, uy = ny / length
        let outward = -(velocity.x * ux + velocity.y * uy)
        guard outward > 0 else { return (projected, velocity) }
        return (projected, Point2D(x: velocity.x + outward * ux, y: velocity.y + outward * uy))
    }

    /// A step from `previous` to `position` that crosses a wall goes through the door beside the
    /// first wall it crosses instead (``FloorWalls/door(from:to:reach:)``): the position is put
    /// in the door, from which both ends are in sight, and the velocity is kept. Where that door
    /// does not lead round (a step through two rooms, another wall in the way) the position is put
    /// in the first door of the shortest way round (``FloorWalls/waypoint(from:to:reach:)``).
    /// Where no way leads there (a room closed by walls, or a floor of more than
    /// ``FloorWalls/largestRoutedFloor`` walls) the step is held on `previous`'s side
    /// (``FloorWalls/stop(_:_:margin:)``) and the velocity loses its component across the cut.
    /// Unchanged when the step crosses no wall.
    func keepBehindWalls(from previous: Point2D, position: Point2D, velocity: Point2D) -> (Point2D, Point2D) {
        guard !walls.isEmpty else { return (position, velocity) }
        if let door = walls.firstDoor(from: previous, to: position, reach: FloorWalls.doorReach) {
            return (door, velocity)
        }
        let stopped = walls.stop(previous, position, margin: margin)
        let cx = position.x - stopped.x, cy = position.y - stopped.y
        let cut = (cx * cx + cy * cy).squareRoot()
        guard cut > 0 else { return (position, velocity) }
        let ux = cx / cut, uy = cy / cut
        let across = velocity.x * ux + velocity.y * uy
        guard across > 0 else { return (stopped, velocity) }
        return (stopped, Point2D(x: velocity.x - across * ux, y: velocity.y - across * uy))
    }

    /// Applies the speed limit, then the outline, then (given the position the step started
    /// from) the walls, to a state vector that starts (x, y, vx, vy).
    func constrain(_ x: inout [Double], from previous: Point2D? = nil) {
        var (position, velocity) = keep(
            position: Point2D(x: x[0], y: x[1]),
            velocity: limitSpeed(Point2D(x: x[2], y: x[3])))
        if let previous {
            (position, velocity) = keepBehindWalls(from: previous, position: position, velocity: velocity)
        }
        x[0] = position.x
        x[1] = position.y
        x[2] = velocity.x
        x[3] = velocity.y
    }
}
