import Foundation
import TestSupport
import Testing

@testable import BeaconModel

@Suite("Walls in the plan")
struct WallTests {
    static func plan(walls: String, defaults: String = "") -> String {
        """
        {"formatVersion": 1, "name": "walls",
         "defaults": {"measuredPower": -59\(defaults)},
         "floors": [{"level": 0,
           "outline": [[0, 0], [12, 0], [12, 8], [0, 8]],
           "walls": \(walls),
           "beacons": [{"uuid": "F7826DA6-4FA2-4E98-8024-BC5B71E0893E", "major": 1, "minor": 1, "x": 1, "y": 1}]}]}
        """
    }

    @Test("reads walls with and without their own attenuation, and writes them back")
    func roundTrip() throws {
        let text = Self.plan(
            walls: #"[{"from": [6, 0], "to": [6, 3.8], "attenuation": 7.5}, {"from": [6, 4.8], "to": [6, 8]}]"#,
            defaults: #", "wallAttenuation": 4"#)
        let plan = try FloorPlan(jsonData: Data(text.utf8))
        let walls = plan.floors[0].walls
        #expect(walls.count == 2)
        #expect(walls[0] == Wall(from: Point2D(x: 6, y: 0), to: Point2D(x: 6, y: 3.8), attenuation: 7.5))
        #expect(walls[1].attenuation == nil)
        #expect(plan.defaults.wallAttenuation == 4)
        #expect(plan.defaults.attenuation(of: walls[0]) == 7.5)
        #expect(plan.defaults.attenuation(of: walls[1]) == 4)
        #expect(try FloorPlan(jsonData: plan.jsonData()) == plan)
    }

    @Test("a plan without walls writes no walls key and no wallAttenuation")
    func noWallsNoKey() throws {
        let plan = try FloorPlan(jsonData: Data(Self.plan(walls: "[]").utf8))
        let written = String(decoding: plan.jsonData(), as: UTF8.self)
        #expect(!written.contains(#""walls":"#))
        #expect(!written.contains(#""wallAttenuation""#))
        #expect(PlanDefaults().attenuation(of: Wall(from: .zero, to: Point2D(x: 1, y: 0))) == 5)
    }

    @Test(
        "bad walls are errors that name their path",
        arguments: [
            (#"[{"from": [6, 0], "to": [6, 0]}]"#, "floors[0].walls[0]"),
            (#"[{"from": [6, 0], "to": [6, 2], "attenuation": 41}]"#, "floors[0].walls[0].attenuation"),
            (#"[{"from": [6, 0], "to": [6, 2], "attenuation": -1}]"#, "floors[0].walls[0].attenuation"),
            (#"[{"from": [6, 0], "too": [6, 2]}]"#, "floors[0].walls[0]"),
            (#"[{"from": [6], "to": [6, 2]}]"#, "floors[0].walls[0].from")
        ])
    func badWalls(walls: String, path: String) {
        #expect {
            try FloorPlan(jsonData: Data(Self.plan(walls: walls).utf8))
        } throws: { error in
            (error as? FloorPlanError)?.path.hasPrefix(path) == true
        }
    }

    @Test("more walls than a floor may have is an error that names the floor's walls and the limit")
    func tooManyWalls() throws {
        let one = #"{"from": [1, 0], "to": [1, 2]}"#
        let walls = "[" + Array(repeating: one, count: Wall.maximumPerFloor + 1).joined(separator: ",") + "]"
        #expect(throws: FloorPlanError.tooManyWalls(path: "floors[0].walls", count: 10_001, limit: 10_000)) {
            try FloorPlan(jsonData: Data(Self.plan(walls: walls).utf8))
        }
        let fine = "[" + Array(repeating: one, count: Wall.maximumPerFloor).joined(separator: ",") + "]"
        #expect(try FloorPlan(jsonData: Data(Self.plan(walls: fine).utf8)).floors[0].walls.count == 10_000)
    }

    @Test("the multi-wall loss adds the attenuation of each wall crossed, and only those")
    func loss() {
        // Two parallel walls x = 4 and x = 8 over y 0...8, with 3 and 6 dB.
        let walls = FloorWalls(
            [
                Wall(from: Point2D(x: 4, y: 0), to: Point2D(x: 4, y: 8), attenuation: 3),
                Wall(from: Point2D(x: 8, y: 0), to: Point2D(x: 8, y: 8))
            ], attenuation: 6)
        #expect(walls.loss(1, 4, 3, 4) == 0)
        #expect(walls.loss(1, 4, 5, 4) == 3)
        #expect(walls.loss(1, 4, 11, 4) == 9)
        #expect(walls.crossings(1, 4, 11, 4) == 2)
        // Passing beyond a wall's end (a door at y > 8) crosses nothing; touching an end neither.
        #expect(walls.loss(1, 9, 11, 9) == 0)
        #expect(walls.loss(4, 8, 4, 12) == 0)
        // A beacon mounted on the wall is heard on both sides.
        #expect(walls.loss(4, 4, 1, 4) == 0 && walls.loss(4, 4, 6, 4) == 0)
    }

    @Test("a step that would cross a wall stops short of it and slides along; a door lets it through")
    func stop() {
        let walls = FloorWalls([Wall(from: Point2D(x: 4, y: 0), to: Point2D(x: 4, y: 8))], attenuation: 5)
        let stopped = walls.stop(Point2D(x: 3, y: 2), Point2D(x: 6, y: 5), margin: 0.05)
        #expect(abs(stopped.x - 3.95) < 1e-9)
        #expect(abs(stopped.y - 5) < 1e-9)  // the step's part along the wall is kept
        #expect(walls.crossings(3, 2, stopped.x, stopped.y) == 0)
        // Through the door above the wall's end: unchanged.
        let through = walls.stop(Point2D(x: 3, y: 9), Point2D(x: 6, y: 9.5), margin: 0.05)
        #expect(through == Point2D(x: 6, y: 9.5))
    }

    @Test("a step through a wall is put in the nearer door beside it; none when no end leads round")
    func door() throws {
        // A partition along y = 5 from x = 0 to 12 with a door between x = 5 and 7.
        let walls = FloorWalls(
            [
                Wall(from: Point2D(x: 0, y: 5), to: Point2D(x: 5, y: 5)),
                Wall(from: Point2D(x: 7, y: 5), to: Point2D(x: 12, y: 5))
            ], attenuation: 5)
        // From (3, 4) to (4, 6): through the west wall; its east end, 0.5 m on, is in the door.
        let door = try #require(walls.door(from: Point2D(x: 3, y: 4), to: Point2D(x: 4, y: 6), reach: 0.5))
        #expect(door == Point2D(x: 5.5, y: 5))
        #expect(walls.crossings(3, 4, door.x, door.y) == 0 && walls.crossings(door.x, door.y, 4, 6) == 0)
        // From (10, 4) to (9, 6): through the east wall, whose west end leads into the door.
        #expect(walls.door(from: Point2D(x: 10, y: 4), to: Point2D(x: 9, y: 6), reach: 0.5) == Point2D(x: 6.5, y: 5))
        // A step through the door itself crosses nothing: no door to find.
        #expect(walls.door(from: Point2D(x: 6, y: 4), to: Point2D(x: 6, y: 6), reach: 0.5) == nil)
        // A closed partition (no gap): each end's point beyond it is inside the other wall's run
        // or outside the room and still cut off, so there is none.
        let closed = FloorWalls(
            [
                Wall(from: Point2D(x: 0, y: 5), to: Point2D(x: 6, y: 5)),
                Wall(from: Point2D(x: 6, y: 5), to: Point2D(x: 12, y: 5)),
                Wall(from: Point2D(x: 0, y: 0), to: Point2D(x: 0, y: 10)),
                Wall(from: Point2D(x: 12, y: 0), to: Point2D(x: 12, y: 10))
            ], attenuation: 5)
        #expect(closed.door(from: Point2D(x: 3, y: 4), to: Point2D(x: 4, y: 6), reach: 0.5) == nil)
    }

    @Test("a step through two rooms goes to the first door of the way round; none without a way")
    func waypoint() throws {
        let walls = threeRooms()
        let a = Point2D(x: 2, y: 2), b = Point2D(x: 10, y: 6)
        // The single-door rule finds nothing: the first wall's door does not see b.
        #expect(walls.door(from: a, to: b, reach: 0.5) == nil)
        let first = try #require(walls.waypoint(from: a, to: b, reach: 0.5))
        #expect(first == Point2D(x: 4, y: 6.5))
        #expect(walls.crossings(a.x, a.y, first.x, first.y) == 0)
        // From there the next door is the second wall's, then b is in sight.
        let second = try #require(walls.waypoint(from: first, to: b, reach: 0.5))
        #expect(second == Point2D(x: 8, y: 1.5))
        #expect(walls.crossings(second.x, second.y, b.x, b.y) == 0)
        #expect(walls.waypoint(from: second, to: b, reach: 0.5) == nil)  // nothing in the way
        // The way back, from the east room to the west one, starts at the second wall's door.
        #expect(walls.waypoint(from: b, to: a, reach: 0.5) == Point2D(x: 8, y: 1.5))
        // The middle room closed at its south door: no way into the east room.
        let closed = threeRooms(eastDoor: false)
        #expect(closed.waypoint(from: a, to: b, reach: 0.5) == nil)
    }
}
