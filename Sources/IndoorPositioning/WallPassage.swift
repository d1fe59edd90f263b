import BeaconModel

/// Keeps a device's reported positions from stepping through the plan's walls: the last line of
/// ``PositioningEngine/Configuration/stopsAtWalls``.
///
/// The tracker already holds each of its members' steps off the walls (a step that would cross
/// one is put in the door beside it, see `FloorWalls.door(from:to:reach:)`), but a report mixes
/// the members of the tracker bank, and a refined report (lag, smoother) mixes a whole window of
/// steps: either can land on the far side of a wall from the report before it. When a tracked or
/// refined report's straight step from the device's previous report crosses a wall, it is put in
/// the door beside the first wall crossed, if that door leads round to it; otherwise (a track
/// that restarted elsewhere, a step through two rooms) in the first door of the shortest way
/// there through the floor's doors (`FloorWalls.waypoint(from:to:reach:)`), so that the reports
/// walk through the doors after it over the next epochs. Only where no way leads there (a room
/// closed by walls) is it left where it is.
struct WallPassage: Sendable {
    /// The previous report's level and horizontal position, metres.
    private var last: (level: Int, position: Point2D)?

    /// Moves `report` into a door when its step from the previous report crosses one of `walls`
    /// (the walls of its level; empty: nothing to do), then remembers it.
    mutating func pass(_ report: inout PositionReport, walls: FloorWalls) {
        let position = report.position.planar
        defer { last = (report.level, report.position.planar) }
        guard !walls.isEmpty, report.source == .tracked || report.source == .smoothed,
            let last, last.level == report.level,
            let door = walls.firstDoor(from: last.position, to: position, reach: FloorWalls.doorReach)
        else { return }
        report.position.x = door.x
        report.position.y = door.y
    }
}
