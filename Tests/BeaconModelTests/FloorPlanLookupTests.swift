import Foundation
import Testing

@testable import BeaconModel

@Suite("FloorPlan lookups")
struct FloorPlanLookupTests {
    static let uuid = UUID(uuidString: "F7826DA6-4FA2-4E98-8024-BC5B71E0893E")!

    static func id(_ major: UInt16, _ minor: UInt16) -> BeaconIdentity {
        BeaconIdentity(uuid: uuid, major: major, minor: minor)
    }

    static func square(_ x0: Double, _ y0: Double, _ side: Double) -> Polygon {
        Polygon([
            Point2D(x: x0, y: y0), Point2D(x: x0 + side, y: y0),
            Point2D(x: x0 + side, y: y0 + side), Point2D(x: x0, y: y0 + side)
        ])
    }

    /// Two floors: level 0 at elevation 0 and level 1 at 3.5 m, zones on both.
    static func twoFloorPlan() throws -> FloorPlan {
        let ground = Floor(
            level: 0, name: "Ground", elevation: 0, outline: square(0, 0, 20),
            zones: [
                Zone(id: "lobby", name: "Lobby", polygon: square(0, 0, 6)),
                Zone(id: "cafe", polygon: square(10, 10, 5))
            ],
            beacons: [
                Beacon(identity: id(1, 1), position: Point3D(x: 1, y: 2, z: 2.6)),
                Beacon(
                    identity: id(1, 2), position: Point3D(x: 15, y: 2, z: 2.6),
                    measuredPower: -65, pathLossExponent: 2.4)
            ])
        let first = Floor(
            level: 1, elevation: 3.5, outline: square(0, 0, 20),
            zones: [Zone(id: "lobby", polygon: square(0, 0, 3))],  // same id on another floor is fine
            beacons: [Beacon(identity: id(2, 1), position: Point3D(x: 5, y: 5, z: 2.0), measuredPower: -70)])
        return try FloorPlan(
            name: "Two floors",
            defaults: PlanDefaults(measuredPower: -60, pathLossExponent: 1.7, receiverHeight: 1.1),
            floors: [ground, first])
    }

    @Test("identity lookup finds each beacon and nothing else")
    func identityLookup() throws {
        let plan = try Self.twoFloorPlan()
        #expect(plan.beaconCount == 3)
        #expect(plan.beacon(Self.id(1, 2))?.position == Point3D(x: 15, y: 2, z: 2.6))
        #expect(plan.beacon(Self.id(2, 1))?.measuredPower == -70)
        #expect(plan.beacon(Self.id(2, 2)) == nil)
        #expect(plan.beacons.map(\.identity) == [Self.id(1, 1), Self.id(1, 2), Self.id(2, 1)])
    }

    @Test("identity lookup is a hash lookup: a 10,000-beacon plan answers every identity correctly")
    func largePlanLookup() throws {
        var beacons: [Beacon] = []
        for major in 0..<100 {
            for minor in 0..<100 {
                beacons.append(
                    Beacon(
                        identity: Self.id(UInt16(major), UInt16(minor)),
                        position: Point3D(x: Double(major), y: Double(minor), z: 2)))
            }
        }
        let plan = try FloorPlan(name: "Large", floors: [Floor(level: 0, beacons: beacons)])
        #expect(plan.beaconCount == 10_000)
        var wrong = 0
        for major in 0..<100 {
            for minor in 0..<100 {
                let position = plan.beacon(Self.id(UInt16(major), UInt16(minor)))?.position
                if position != Point3D(x: Double(major), y: Double(minor), z: 2) { wrong += 1 }
            }
        }
        #expect(wrong == 0)
        #expect(plan.beacon(Self.id(100, 0)) == nil)
    }

    @Test("resolved beacons fill in defaults and add the floor elevation")
    func resolved() throws {
        let plan = try Self.twoFloorPlan()
        let defaulted = try #require(plan.resolvedBeacon(Self.id(1, 1)))
        #expect(defaulted.level == 0)
        #expect(defaulted.position == Point3D(x: 1, y: 2, z: 2.6))
        #expect(defaulted.measuredPower == -60)
        #expect(defaulted.pathLossExponent == 1.7)
        let own = try #require(plan.resolvedBeacon(Self.id(1, 2)))
        #expect(own.measuredPower == -65)
        #expect(own.pathLossExponent == 2.4)
        let upstairs = try #require(plan.resolvedBeacon(Self.id(2, 1)))
        #expect(upstairs.level == 1)
        #expect(upstairs.position.z == 5.5)  // 3.5 m elevation + 2.0 m on the floor
        #expect(upstairs.measuredPower == -70)  // own
        #expect(upstairs.pathLossExponent == 1.7)  // default
        #expect(plan.resolvedBeacon(Self.id(9, 9)) == nil)
    }

    @Test("floor by level, and nil for a level the plan lacks")
    func floorByLevel() throws {
        let plan = try Self.twoFloorPlan()
        #expect(plan.floor(level: 0)?.name == "Ground")
        #expect(plan.floor(level: 1)?.elevation == 3.5)
        #expect(plan.floor(level: 2) == nil)
        #expect(plan.floor(level: -1) == nil)
    }

    @Test("zone at a point, per level; outside every zone gives nil")
    func zoneAtPoint() throws {
        let plan = try Self.twoFloorPlan()
        #expect(plan.zone(at: Point2D(x: 1, y: 1), level: 0)?.id == "lobby")
        #expect(plan.zone(at: Point2D(x: 12, y: 12), level: 0)?.id == "cafe")
        #expect(plan.zone(at: Point2D(x: 8, y: 8), level: 0) == nil)
        #expect(plan.zone(at: Point2D(x: 5, y: 5), level: 0)?.id == "lobby")
        #expect(plan.zone(at: Point2D(x: 5, y: 5), level: 1) == nil)  // upstairs lobby is 3 × 3
        #expect(plan.zone(at: Point2D(x: 1, y: 1), level: 7) == nil)
    }

    @Test(
        "the typed initialiser validates too",
        arguments: [
            (
                Floor(
                    level: 0, zones: [Zone(id: "a", polygon: square(0, 0, 1)), Zone(id: "a", polygon: square(2, 2, 1))]),
                "floors[0].zones[1].id", "zone id \"a\" is already used by floors[0].zones[0].id on the same floor"
            ),
            (Floor(level: 0, elevation: .nan), "floors[0].elevation", "nan is not a finite number"),
            (
                Floor(level: 0, beacons: [Beacon(identity: id(1, 1), position: Point3D(x: .infinity, y: 0, z: 0))]),
                "floors[0].beacons[0].x", "inf is not a finite number"
            ),
            (
                Floor(
                    level: 0,
                    beacons: [Beacon(identity: id(1, 1), position: Point3D(x: 0, y: 0, z: 0), measuredPower: 3)]),
                "floors[0].beacons[0].measuredPower", "3.0 is out of range -120...0 dBm"
            ),
            (
                Floor(level: 0, outline: Polygon([Point2D(x: 0, y: 0), Point2D(x: .nan, y: 1), Point2D(x: 1, y: 0)])),
                "floors[0].outline[1][0]", "nan is not a finite number"
            )
        ] as [(Floor, String, String)])
    func typedValidation(_ floor: Floor, path: String, message: String) {
        #expect(throws: FloorPlanError.self) { try FloorPlan(name: "x", floors: [floor]) }
        do {
            _ = try FloorPlan(name: "x", floors: [floor])
        } catch {
            #expect(error.path == path)
            #expect(error.description == "\(path): \(message)")
        }
    }

    @Test("non-finite defaults are rejected by the typed initialiser")
    func typedDefaults() {
        #expect(throws: FloorPlanError.nonFinite(path: "defaults.receiverHeight", value: "nan")) {
            try FloorPlan(name: "x", defaults: PlanDefaults(receiverHeight: .nan), floors: [])
        }
        #expect(throws: FloorPlanError.outOfRange(path: "defaults.pathLossExponent", value: "0.1", range: "0.5...6")) {
            try FloorPlan(name: "x", defaults: PlanDefaults(pathLossExponent: 0.1), floors: [])
        }
    }
}
