import Foundation
import TestSupport
import Testing

@testable import BeaconModel

@Suite("FloorPlan JSON")
struct FloorPlanJSONTests {
    static let uuid = UUID(uuidString: "F7826DA6-4FA2-4E98-8024-BC5B71E0893E")!
    static let dataUUID = UUID(uuidString: "B1E5E0A1-7D2C-4C55-9A51-5D3E2C1A0B0C")!

    @Test("reads every key of the format")
    func readsEverything() throws {
        let plan = try FloorPlan(jsonData: Data(SamplePlans.twoFloors.utf8))
        #expect(plan.name == "Test office")
        #expect(plan.defaults == PlanDefaults(measuredPower: -59, pathLossExponent: 2, receiverHeight: 1.2))
        #expect(plan.floors.map(\.level) == [0, 1])
        #expect(plan.floors[0].name == "Ground floor")
        #expect(plan.floors[1].name == nil)
        #expect(plan.floors[1].elevation == 3.5)
        #expect(plan.floors[0].outline?.area == 300)
        #expect(plan.floors[1].zones.map(\.id) == ["hall", "office"])
        #expect(plan.floors[1].zones[1].name == "Office")
        #expect(plan.beaconCount == 5)
        let first = try #require(plan.beacon(BeaconIdentity(uuid: Self.uuid, major: 1, minor: 7)))
        #expect(first.position == Point3D(x: 1, y: 2, z: 2.6))
        #expect(first.measuredPower == nil && first.pathLossExponent == nil)
        let own = try #require(plan.resolvedBeacon(BeaconIdentity(uuid: Self.uuid, major: 2, minor: 4)))
        #expect(own.measuredPower == -61.5 && own.pathLossExponent == 1.8)
        #expect(own.position == Point3D(x: 3, y: 12, z: 3.5))  // z left out: 0 above a floor at 3.5 m
        #expect(plan.zone(at: Point2D(x: 7, y: 7), level: 1)?.id == "office")
    }

    @Test("a minimal document takes every default; unknown keys and nulls are ignored")
    func minimal() throws {
        let json = #"""
            {"floors": [{"level": -1, "comment": {"any": [1, true, null]}, "name": null,
              "beacons": [{"uuid": "f7826da6-4fa2-4e98-8024-bc5b71e0893e", "major": 0, "minor": 65535,
                           "x": -2.5, "y": 1e2, "measuredPower": null, "vendor": "Kontakt"}]}],
             "extra": 1}
            """#
        let plan = try FloorPlan(jsonData: Data(json.utf8))
        #expect(plan.name == "")
        #expect(plan.defaults == PlanDefaults())
        #expect(plan.floors.count == 1)
        #expect(plan.floors[0].level == -1)
        #expect(plan.floors[0].elevation == 0)
        #expect(plan.floors[0].outline == nil)
        #expect(plan.floors[0].zones.isEmpty)
        let beacon = try #require(plan.beacon(BeaconIdentity(uuid: Self.uuid, major: 0, minor: 65535)))
        #expect(beacon.position == Point3D(x: -2.5, y: 100, z: 0))
        #expect(beacon.measuredPower == nil)
        #expect(plan.resolvedBeacon(beacon.identity)?.measuredPower == -59)
    }

    @Test("formatVersion: missing means 1, 1 is read, an integral 1.0 is read")
    func formatVersion() throws {
        for version in ["", #""formatVersion": 1,"#, #""formatVersion": 1.0,"#] {
            let plan = try FloorPlan(jsonData: Data(#"{\#(version) "floors": []}"#.utf8))
            #expect(plan.floors.isEmpty)
        }
    }

    @Test("defaults may be partial: the keys left out keep their PlanDefaults values")
    func partialDefaults() throws {
        let plan = try FloorPlan(jsonData: Data(#"{"defaults": {"pathLossExponent": 2.7}, "floors": []}"#.utf8))
        #expect(plan.defaults == PlanDefaults(measuredPower: -59, pathLossExponent: 2.7, receiverHeight: 1.2))
    }

    @Test("the danis-office fixture loads: 12 receivers on one floor, its defaults")
    func danisOffice() throws {
        let plan = try FloorPlan(jsonData: SamplePlans.fixture("danis-office-plan.json"))
        #expect(plan.beaconCount == 12)
        #expect(plan.defaults == PlanDefaults(measuredPower: -61, pathLossExponent: 1.5, receiverHeight: 1.82))
        #expect(plan.floors.count == 1)
        #expect(abs((plan.floors[0].outline?.area ?? 0) - 20.66 * 17.64) < 1e-9)
        let seven = try #require(plan.resolvedBeacon(BeaconIdentity(uuid: Self.dataUUID, major: 1, minor: 7)))
        #expect(seven.position == Point3D(x: 13.14, y: 12.33, z: 1.22))
        #expect(seven.measuredPower == -61 && seven.pathLossExponent == 1.5)
        #expect(Set(plan.beacons.map(\.identity.minor)) == Set(1...12))
        #expect(Set(plan.beacons.map(\.position.z)) == [1.22, 2.3])
    }

    @Test("the kolakowski-flat fixture loads: 6 anchors, its defaults")
    func kolakowskiFlat() throws {
        let plan = try FloorPlan(jsonData: SamplePlans.fixture("kolakowski-flat-plan.json"))
        #expect(plan.beaconCount == 6)
        #expect(plan.defaults == PlanDefaults(measuredPower: -59, pathLossExponent: 2, receiverHeight: 1.3))
        #expect(abs((plan.floors[0].outline?.area ?? 0) - 9.07 * 7.1) < 1e-9)
        let four = try #require(plan.beacon(BeaconIdentity(uuid: Self.dataUUID, major: 1, minor: 4)))
        #expect(four.position == Point3D(x: 3.79, y: 7.06, z: 1.85))
    }

    @Test("the bundled sample plan loads, with its three zones covering the outline")
    func bundledSample() throws {
        let url = SamplePlans.packageRoot.appendingPathComponent("Docs/Examples/office-plan.json")
        let plan = try FloorPlan.load(path: url.path)
        let reference = try FloorPlan(jsonData: SamplePlans.fixture("danis-office-plan.json"))
        #expect(plan.beacons == reference.beacons)
        #expect(plan.defaults == reference.defaults)
        #expect(plan.floors[0].zones.map(\.id) == ["west", "centre", "east"])
        let zoneArea = plan.floors[0].zones.map(\.polygon.area).reduce(0, +)
        #expect(abs(zoneArea - (plan.floors[0].outline?.area ?? 0)) < 1e-9)
        #expect(plan.zone(at: Point2D(x: 3, y: 8), level: 0)?.id == "west")
        #expect(plan.zone(at: Point2D(x: 10, y: 8), level: 0)?.id == "centre")
        #expect(plan.zone(at: Point2D(x: 17, y: 8), level: 0)?.id == "east")
        // The file is in canonical form: saving it again gives the same bytes.
        #expect(plan.jsonData() == (try Data(contentsOf: url)))
    }

    @Test(
        "round trip: reading what was written gives the same plan, and the same bytes again",
        arguments: ["twoFloors", "danis-office-plan.json", "kolakowski-flat-plan.json"])
    func roundTrip(_ source: String) throws {
        let data = source == "twoFloors" ? Data(SamplePlans.twoFloors.utf8) : try SamplePlans.fixture(source)
        let plan = try FloorPlan(jsonData: data)
        let written = plan.jsonData()
        let reread = try FloorPlan(jsonData: written)
        #expect(reread == plan)
        #expect(reread.jsonData() == written)
        #expect(plan.jsonData() == written)
    }

    @Test("beacon values left out stay left out; given ones are kept")
    func optionalValuesStayOptional() throws {
        let plan = try FloorPlan(jsonData: Data(SamplePlans.twoFloors.utf8))
        let text = String(decoding: plan.jsonData(), as: UTF8.self)
        #expect(text.components(separatedBy: "\"measuredPower\"").count - 1 == 2)  // defaults + one beacon
        #expect(text.components(separatedBy: "\"pathLossExponent\"").count - 1 == 2)
        let reread = try FloorPlan(jsonData: plan.jsonData())
        #expect(reread.floors[1].beacons.map(\.measuredPower) == [nil, nil, nil, -61.5])
    }

    @Test("the written form is pretty, sorted and exact")
    func writtenForm() throws {
        let plan = try FloorPlan(
            name: "Tiny \"quoted\" ✓",
            floors: [
                Floor(
                    level: 2, elevation: 7.09,
                    outline: Polygon([Point2D(x: 0, y: 0), Point2D(x: 0.1, y: 0), Point2D(x: 0, y: 0.2)]),
                    beacons: [
                        Beacon(
                            identity: BeaconIdentity(uuid: Self.uuid, major: 3, minor: 4),
                            position: Point3D(x: 1, y: 2, z: 0), pathLossExponent: 2.25)
                    ])
            ])
        let expected = """
            {
              "defaults": {
                "measuredPower": -59.0,
                "pathLossExponent": 2.0,
                "receiverHeight": 1.2
              },
              "floors": [
                {
                  "beacons": [
                    {
                      "major": 3,
                      "minor": 4,
                      "pathLossExponent": 2.25,
                      "uuid": "F7826DA6-4FA2-4E98-8024-BC5B71E0893E",
                      "x": 1.0,
                      "y": 2.0,
                      "z": 0.0
                    }
                  ],
                  "elevation": 7.09,
                  "level": 2,
                  "outline": [
                    [0.0, 0.0],
                    [0.1, 0.0],
                    [0.0, 0.2]
                  ],
                  "zones": []
                }
              ],
              "formatVersion": 1,
              "name": "Tiny \\"quoted\\" ✓"
            }

            """
        #expect(String(decoding: plan.jsonData(), as: UTF8.self) == expected)
    }

    /// A UUID from the seeded generator, so that the trials are reproducible.
    static func randomUUID(using rng: inout SeededGenerator) -> UUID {
        let a = rng.next(), b = rng.next()
        func byte(_ word: UInt64, _ i: Int) -> UInt8 { UInt8(truncatingIfNeeded: word >> (8 * UInt64(i))) }
        return UUID(
            uuid: (
                byte(a, 0), byte(a, 1), byte(a, 2), byte(a, 3), byte(a, 4), byte(a, 5), byte(a, 6), byte(a, 7),
                byte(b, 0), byte(b, 1), byte(b, 2), byte(b, 3), byte(b, 4), byte(b, 5), byte(b, 6), byte(b, 7)
            ))
    }

    @Test("seeded random plans round-trip exactly, including awkward doubles and names")
    func randomRoundTrip() throws {
        var rng = SeededGenerator(seed: 20_261_122)
        for trial in 0..<50 {
            var floors: [Floor] = []
            var minor: UInt16 = 0
            for level in 0..<Int.random(in: 1...3, using: &rng) {
                var beacons: [Beacon] = []
                for _ in 0..<Int.random(in: 0...6, using: &rng) {
                    minor += 1
                    beacons.append(
                        Beacon(
                            identity: BeaconIdentity(
                                uuid: Self.randomUUID(using: &rng),
                                major: UInt16.random(in: 0...UInt16.max, using: &rng), minor: minor),
                            position: Point3D(
                                x: rng.gaussian(sigma: 1e3), y: rng.gaussian(sigma: 1e-3), z: rng.gaussian(sigma: 3)),
                            measuredPower: Bool.random(using: &rng) ? Double.random(in: -120...0, using: &rng) : nil,
                            pathLossExponent: Bool.random(using: &rng) ? Double.random(in: 0.5...6, using: &rng) : nil))
                }
                let side = Double.random(in: 1e-6...1e6, using: &rng)
                floors.append(
                    Floor(
                        level: level - 1, name: Bool.random(using: &rng) ? "F\\\(level)\n\t\u{1}é" : nil,
                        elevation: rng.gaussian(sigma: 10),
                        outline: Polygon([Point2D(x: 0, y: 0), Point2D(x: side, y: 0), Point2D(x: 0, y: side)]),
                        zones: [
                            Zone(
                                id: "z\(trial)", name: "\"zone\"",
                                polygon:
                                    Polygon([
                                        Point2D(x: 0, y: 0), Point2D(x: side / 3, y: 0), Point2D(x: 0, y: side / 7)
                                    ]))
                        ],
                        beacons: beacons))
            }
            let plan = try FloorPlan(
                name: "trial \(trial) ☃",
                defaults: PlanDefaults(
                    measuredPower: Double.random(in: -120...0, using: &rng),
                    pathLossExponent: Double.random(in: 0.5...6, using: &rng),
                    receiverHeight: Double.random(in: 0...3, using: &rng)), floors: floors)
            let written = plan.jsonData()
            let reread = try FloorPlan(jsonData: written)
            #expect(reread == plan, "trial \(trial)")
            #expect(reread.jsonData() == written, "trial \(trial)")
        }
    }

    @Test("save and load through a file: atomic write, identical bytes on a second save")
    func saveAndLoad() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("plan-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("plan.json").path
        let plan = try FloorPlan(jsonData: Data(SamplePlans.twoFloors.utf8))
        try plan.save(to: path)
        let first = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(try FloorPlan.load(path: path) == plan)
        try FloorPlan.load(path: path).save(to: path)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == first)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["plan.json"])
    }

    @Test("file errors are .io naming the file and what to do")
    func fileErrors() throws {
        let missing = "/nonexistent-\(UUID().uuidString)/plan.json"
        #expect(throws: FloorPlanError.io(path: missing, detail: "no such file; check the floor-plan path")) {
            try FloorPlan.load(path: missing)
        }
        let folder = FileManager.default.temporaryDirectory.path
        #expect(throws: FloorPlanError.io(path: folder, detail: "is a directory, not a floor-plan JSON file")) {
            try FloorPlan.load(path: folder)
        }
        do {
            _ = try FloorPlan.load(path: "/dev/zero")
            Issue.record("read a plan from /dev/zero")
        } catch {
            #expect(
                error
                    == .io(
                        path: "/dev/zero",
                        detail:
                            "is larger than 16 MiB; a floor plan is a few kilobytes, check that this is the plan file"))
        }
        #expect(throws: FloorPlanError.malformedJSON(detail: "the document is empty (line 1, column 1)")) {
            try FloorPlan.load(path: "/dev/null")
        }
        let plan = try FloorPlan(jsonData: Data(SamplePlans.twoFloors.utf8))
        do {
            try plan.save(to: missing)
            Issue.record("saving into a missing folder succeeded")
        } catch {
            guard case .io(let path, let detail) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(path == missing)
            #expect(detail.hasPrefix("cannot be written ("))
            #expect(error.description.hasPrefix("\(missing): cannot be written"))
        }
    }
}
