import BeaconModel
import Monitoring
import Testing

/// Which zones a phone can walk between directly (``ZoneAdjacency``).
@Suite("ZoneAdjacency: zones that touch or share a door")
struct ZoneAdjacencyTests {
    /// A 6 × 10 m room from x0 to x0 + 6.
    static func room(_ id: String, _ x0: Double) -> Zone {
        Zone(
            id: id,
            polygon: Polygon([
                Point2D(x: x0, y: 0), Point2D(x: x0 + 6, y: 0), Point2D(x: x0 + 6, y: 10), Point2D(x: x0, y: 10)
            ]))
    }

    /// Three rooms in a row, a | b | c, with `walls`.
    static func row(walls: [Wall] = []) -> Floor {
        Floor(level: 0, zones: [room("a", 0), room("b", 6), room("c", 12)], walls: walls)
    }

    @Test("a row of three rooms: a–b and b–c are neighbours, a–c are not; none neighbours every zone")
    func row() {
        let adjacency = ZoneAdjacency(floor: Self.row())
        #expect(adjacency.stateCount == 4)
        #expect(adjacency.areNeighbours(0, 1) && adjacency.areNeighbours(1, 0))
        #expect(adjacency.areNeighbours(1, 2) && adjacency.areNeighbours(2, 1))
        #expect(!adjacency.areNeighbours(0, 2) && !adjacency.areNeighbours(2, 0))
        #expect(!adjacency.areNeighbours(0, 0))
        #expect(Array(adjacency.neighbours(of: 3)) == [0, 1, 2])
        #expect(Array(adjacency.neighbours(of: 0)) == [1, 3])
        #expect(Array(adjacency.neighbours(of: 1)) == [0, 2, 3])
    }

    @Test("a wall along the whole shared edge parts two rooms; one with a 1-m gap (a door) does not")
    func walls() {
        // The wall between a and b, x = 6, y 0–10, drawn 0.1 m off the zones' edge.
        let closed = ZoneAdjacency(
            floor: Self.row(walls: [Wall(from: Point2D(x: 6.1, y: 0), to: Point2D(x: 6.1, y: 10))]))
        #expect(!closed.areNeighbours(0, 1))
        #expect(closed.areNeighbours(1, 2))
        #expect(closed.areNeighbours(0, 3))
        // Two walls with a door from y = 4 to 5 between them.
        let door = ZoneAdjacency(
            floor: Self.row(walls: [
                Wall(from: Point2D(x: 6, y: 0), to: Point2D(x: 6, y: 4)),
                Wall(from: Point2D(x: 6, y: 5), to: Point2D(x: 6, y: 10))
            ]))
        #expect(door.areNeighbours(0, 1))
        #expect(!door.areNeighbours(0, 2))
        // A gap narrower than a door (0.2 m) is slack in the drawing, not a door.
        let slack = ZoneAdjacency(
            floor: Self.row(walls: [
                Wall(from: Point2D(x: 6, y: 0), to: Point2D(x: 6, y: 4)),
                Wall(from: Point2D(x: 6, y: 4.2), to: Point2D(x: 6, y: 10))
            ]))
        #expect(!slack.areNeighbours(0, 1))
        // A wall across the edge (not along it) closes nothing.
        let across = ZoneAdjacency(floor: Self.row(walls: [Wall(from: Point2D(x: 3, y: 5), to: Point2D(x: 9, y: 5))]))
        #expect(across.areNeighbours(0, 1))
    }

    @Test("a corner alone does not join two zones; overlapping zones are neighbours")
    func cornersAndOverlaps() {
        let square = { (id: String, x0: Double, y0: Double) in
            Zone(
                id: id,
                polygon: Polygon([
                    Point2D(x: x0, y: y0), Point2D(x: x0 + 4, y: y0), Point2D(x: x0 + 4, y: y0 + 4),
                    Point2D(x: x0, y: y0 + 4)
                ]))
        }
        let floor = Floor(
            level: 0, zones: [square("a", 0, 0), square("b", 4, 4), square("c", 2, 2), square("d", 10, 10)])
        let adjacency = ZoneAdjacency(floor: floor)
        #expect(!adjacency.areNeighbours(0, 1))
        #expect(adjacency.areNeighbours(0, 2) && adjacency.areNeighbours(1, 2))
        // A zone apart from all others still neighbours none.
        #expect(Array(adjacency.neighbours(of: 3)) == [4])
    }

    @Test(
        "the prediction keeps the total, keeps e^{−dt/τ} in place and spreads the rest over a state's neighbours and itself"
    )
    func predict() {
        let adjacency = ZoneAdjacency(floor: Self.row())
        var next: [Double] = []
        adjacency.predict([1, 0, 0, 0], stay: 0.8, into: &next)
        // a's neighbours are b and none: the moving 0.2 goes a third each to a, b, none.
        #expect(abs(next[0] - (0.8 + 0.2 / 3)) < 1e-12)
        #expect(abs(next[1] - 0.2 / 3) < 1e-12 && next[2] == 0 && abs(next[3] - 0.2 / 3) < 1e-12)
        adjacency.predict([0.1, 0.2, 0.3, 0.4], stay: 0.5, into: &next)
        #expect(abs(next.reduce(0, +) - 1) < 1e-12)
    }
}
