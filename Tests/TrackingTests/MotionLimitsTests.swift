import BeaconModel
import TestSupport
import Testing

@testable import Tracking

/// A tracker's step that would cross a wall goes through a door, or stops at the wall where no
/// way leads round.
@Suite("MotionLimits: steps keep off the walls")
struct MotionLimitsTests {
    /// ``threeRooms(eastDoor:attenuation:)``'s walls, the east door open or closed.
    static func limits(open: Bool) -> MotionLimits {
        MotionLimits(maximumSpeed: 3, outline: nil, margin: 0.2, walls: threeRooms(eastDoor: open))
    }

    @Test("a step through two rooms goes to the first door of the way round, its velocity kept")
    func throughTwoRooms() {
        let velocity = Point2D(x: 2, y: 1)
        let (position, kept) = Self.limits(open: true).keepBehindWalls(
            from: Point2D(x: 2, y: 2), position: Point2D(x: 10, y: 6), velocity: velocity)
        #expect(position == Point2D(x: 4, y: 6.5))
        #expect(kept == velocity)
    }

    @Test("with the far room closed the step stops short of the first wall and loses its velocity across it")
    func closed() {
        let (position, velocity) = Self.limits(open: false).keepBehindWalls(
            from: Point2D(x: 2, y: 2), position: Point2D(x: 10, y: 6), velocity: Point2D(x: 2, y: 1))
        #expect(position.x <= 4 - 0.2 + 1e-9)
        #expect(abs(velocity.x) < 1e-9 && abs(velocity.y - 1) < 1e-9)
    }
}
