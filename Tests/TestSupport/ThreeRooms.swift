import BeaconModel

/// Three rooms in a row, 12 × 8 m, closed outside: the wall at x = 4 leaves a door at its north
/// end (y 6–8), the wall at x = 8 one at its south end (y 0–2), or none when `eastDoor` is false.
/// From (2, 2) in the west room to (10, 6) in the east one, the way round passes (4, 6.5) and
/// (8, 1.5) with doors reached 0.5 m beyond the walls' ends.
public func threeRooms(eastDoor: Bool = true, attenuation: Double = 6) -> FloorWalls {
    FloorWalls(
        [
            Wall(from: Point2D(x: 0, y: 0), to: Point2D(x: 12, y: 0)),
            Wall(from: Point2D(x: 12, y: 0), to: Point2D(x: 12, y: 8)),
            Wall(from: Point2D(x: 12, y: 8), to: Point2D(x: 0, y: 8)),
            Wall(from: Point2D(x: 0, y: 8), to: Point2D(x: 0, y: 0)),
            Wall(from: Point2D(x: 4, y: 0), to: Point2D(x: 4, y: 6)),
            Wall(from: Point2D(x: 8, y: eastDoor ? 2 : 0), to: Point2D(x: 8, y: 8))
        ], attenuation: attenuation)
}
