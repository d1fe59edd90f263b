import TestSupport
import Testing

@testable import IndoorPositioning

/// The last check on the way out: a report whose step from the device's previous report
/// crosses a wall is put in the door beside it.
@Suite("WallPassage: reports keep off the walls")
struct WallPassageTests {
    /// A partition along x = 10 from y = 0 to 8; the door is above it (y 8–10).
    static let walls = FloorWalls([Wall(from: Point2D(x: 10, y: 0), to: Point2D(x: 10, y: 8))], attenuation: 6)

    static func report(
        _ x: Double, _ y: Double, level: Int = 0, source: PositionReport.Source = .tracked
    )
        -> PositionReport
    {
        PositionReport(
            timestamp: 0, device: "phone", position: Point3D(x: x, y: y, z: 1.2), level: level,
            covariance: .zero, zone: nil, source: source, beaconCount: 4)
    }

    @Test("a tracked or smoothed step through the wall goes into the door; the next step leaves from there")
    func throughTheDoor() {
        var passage = WallPassage()
        var first = Self.report(8, 5)
        passage.pass(&first, walls: Self.walls)
        #expect(first.position.planar == Point2D(x: 8, y: 5))  // nothing before it
        var across = Self.report(12, 6, source: .smoothed)
        passage.pass(&across, walls: Self.walls)
        #expect(across.position.planar == Point2D(x: 10, y: 8.5))  // the wall's end, 0.5 m on
        var next = Self.report(12, 6)
        passage.pass(&next, walls: Self.walls)
        #expect(next.position.planar == Point2D(x: 12, y: 6))  // from the door it is in sight
    }

    @Test("a fix, a change of floor and a floor without walls are left where they are")
    func leftAlone() {
        var passage = WallPassage()
        var start = Self.report(8, 5)
        passage.pass(&start, walls: Self.walls)
        var fix = Self.report(12, 6, source: .fix)
        passage.pass(&fix, walls: Self.walls)
        #expect(fix.position.planar == Point2D(x: 12, y: 6))
        var back = Self.report(8, 5, level: 1)
        passage.pass(&back, walls: Self.walls)
        #expect(back.position.planar == Point2D(x: 8, y: 5))
        var open = Self.report(12, 6, level: 1)
        passage.pass(&open, walls: .none)
        #expect(open.position.planar == Point2D(x: 12, y: 6))
    }

    @Test("a report two rooms away walks there through the doors, one door per report")
    func twoRoomsAway() {
        let walls = threeRooms()  // doors at the north end of x = 4 and the south end of x = 8
        var passage = WallPassage()
        var start = Self.report(2, 2)
        passage.pass(&start, walls: walls)
        var reported: [Point2D] = [start.position.planar]
        for _ in 0..<3 {
            var restarted = Self.report(10, 6)  // a track that started again in the east room
            passage.pass(&restarted, walls: walls)
            reported.append(restarted.position.planar)
        }
        #expect(reported == [Point2D(x: 2, y: 2), Point2D(x: 4, y: 6.5), Point2D(x: 8, y: 1.5), Point2D(x: 10, y: 6)])
        for (from, to) in zip(reported, reported.dropFirst()) {
            #expect(walls.crossings(from.x, from.y, to.x, to.y) == 0)
        }
    }
}
