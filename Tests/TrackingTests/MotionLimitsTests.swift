import BeaconModel
import Testing

@testable import Tracking

/// A tracker's step that would cross a wall goes through a door, or stops at the wall where no
/// way leads round.
@Suite("MotionLimits: steps keep off the walls")
struct MotionLimitsTests {
    /// Three rooms in a row (12 × 8 m, closed outside): the wall at x = 4 leaves a door at its
    /// north end (y 6–8); the wall at x = 8 one at its south end (y 0–2) when `open`.
    static func limits(open: Bool) -> MotionLimits {
        let outside = [
            Wall(from: Point2D(x: 0, y: 0), to: Point2D(x: 12, y: 0)),
            Wall(from: Point2D(x: 12, y: 0), to: Point2D(x: 12, y: 8)),
            Wall(from: Point2D(x: 12, y: 8), to: Point2D(x: 0, y: 8)),
            Wall(from: Point2D(x: 0, y: 8), to: Point2D(x: 0, y: 0))
        ]
        let inside = [
            Wall(from: Point2D(x: 4, y: 0), to: Point2D(x: 4, y: 6)),
            Wall(from: Point2D(x: 8, y: open ? 2 : 0), to: Point2D(x: 8, y: 8))
        ]
        return MotionLimits(
            maximumSpeed: 3, outline: nil, margin: 0.2, walls: FloorWalls(outside + inside, attenuation: 6))
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
