import Foundation
import TestSupport
import Testing

@testable import BeaconModel

@Suite("Plan checks: misspelled keys and implausible geometry")
struct PlanCheckTests {
    /// A valid one-floor plan with `beacons` and `extra` spliced in (`extra` goes into the floor).
    static func plan(
        beaconKey: String = "beacons", beaconExtra: String = "", floorExtra: String = "",
        topExtra: String = "", x: Double = 1
    ) -> Data {
        Data(
            """
            { "name": "t", \(topExtra) "floors": [ { "level": 0, "outline": [[0, 0], [12, 0], [12, 10], [0, 10]], \(floorExtra)
              "zones": [ { "id": "a", "polygon": [[0, 0], [4, 0], [4, 4], [0, 4]] } ],
              "\(beaconKey)": [
                { "uuid": "F7826DA6-4FA2-4E98-8024-BC5B71E0893E", "major": 1, "minor": 1, "x": \(x), "y": 1 \(beaconExtra) },
                { "uuid": "F7826DA6-4FA2-4E98-8024-BC5B71E0893E", "major": 1, "minor": 2, "x": 11, "y": 1 },
                { "uuid": "F7826DA6-4FA2-4E98-8024-BC5B71E0893E", "major": 1, "minor": 3, "x": 6, "y": 9 } ] } ] }
            """.utf8)
    }

    static func error(_ data: Data) -> FloorPlanError? {
        do {
            _ = try FloorPlan(jsonData: data)
            return nil
        } catch {
            return error
        }
    }

    @Test("\"beacon\", \"measured_power\" and \"zone\" are one-line errors that name the key and the right one")
    func misspellings() throws {
        let cases: [(Data, String, String)] = [
            (Self.plan(beaconKey: "beacon"), "floors[0].beacon", "\"beacons\""),
            (
                Self.plan(beaconExtra: #", "measured_power": -55"#), "floors[0].beacons[0].measured_power",
                "\"measuredPower\""
            ),
            (Self.plan(floorExtra: #""zone": [],"#), "floors[0].zone", "\"zones\""),
            (Self.plan(topExtra: #""defualts": {},"#), "defualts", "\"defaults\""),
            (Self.plan(beaconExtra: #", "Z": 2"#), "floors[0].beacons[0].Z", "\"z\"")
        ]
        for (data, path, suggestion) in cases {
            let error = try #require(Self.error(data))
            guard case .misspelledKey = error else {
                Issue.record("expected a misspelled key at \(path), got \(error)")
                continue
            }
            #expect(error.path == path)
            #expect(error.description.contains("did you mean \(suggestion)"))
            #expect(!error.description.contains("\n"))
        }
    }

    @Test("annotations are still ignored: note, comment, x-vendor, description")
    func annotations() throws {
        let data = Self.plan(
            beaconExtra: #", "comment": "by the door""#, floorExtra: #""description": "ground", "x-vendor": 1,"#,
            topExtra: #""note": "generic values","#)
        let plan = try FloorPlan(jsonData: data)
        #expect(plan.beaconCount == 3)
    }

    @Test("every plan in the repository and the shared data still loads")
    func existingPlans() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        var paths = [
            "Docs/Examples/office-plan.json", "Tests/BeaconModelTests/Fixtures/danis-office-plan.json",
            "Tests/BeaconModelTests/Fixtures/kolakowski-flat-plan.json",
            "Fuzz/Corpus/FuzzFloorPlan/office-plan.json", "Fuzz/Corpus/FuzzFloorPlan/multi-floor.json"
        ]
        .map { root.appendingPathComponent($0).path }
        let shared = root.deletingLastPathComponent().appendingPathComponent("shared/data")
        for set in ["danis-office", "kolakowski-flat"] {
            let path = shared.appendingPathComponent("\(set)/plan.json").path
            if FileManager.default.fileExists(atPath: path) { paths.append(path) }
        }
        for path in paths {
            #expect(throws: Never.self, "\(path)") { _ = try FloorPlan.load(path: path) }
        }
    }

    @Test("a beacon at x = 3000 on a 12-m floor, a zone off the floor and a floor with two beacons are reported")
    func geometry() throws {
        let far = try FloorPlan(jsonData: Self.plan(x: 3000))
        let warnings = far.geometryWarnings()
        let beacon = try #require(
            warnings.first { if case .beaconOutsideOutline = $0 { return true } else { return false } })
        #expect(beacon.description.contains("is 2988 m outside the floor's outline"))
        // Within the 2-m margin nothing is said.
        #expect(try FloorPlan(jsonData: Self.plan(x: 13.5)).geometryWarnings().isEmpty)
        #expect(try FloorPlan(jsonData: Self.plan(x: 14.5)).geometryWarnings().count == 1)

        let zone = Zone(
            id: "elsewhere", polygon: Polygon([Point2D(x: 50, y: 50), Point2D(x: 54, y: 50), Point2D(x: 54, y: 54)]))
        let crossing = Zone(
            id: "crossing",
            polygon: Polygon([Point2D(x: -2, y: 4), Point2D(x: 14, y: 4), Point2D(x: 14, y: 6), Point2D(x: -2, y: 6)]))
        let outline = Polygon([Point2D(x: 0, y: 0), Point2D(x: 12, y: 0), Point2D(x: 12, y: 10), Point2D(x: 0, y: 10)])
        let uuid = UUID(uuidString: "F7826DA6-4FA2-4E98-8024-BC5B71E0893E")!
        let beacons = (1...2).map {
            Beacon(
                identity: BeaconIdentity(uuid: uuid, major: 1, minor: UInt16($0)),
                position: Point3D(x: Double($0), y: 1, z: 2))
        }
        let plan = try FloorPlan(
            name: "g", floors: [Floor(level: 0, outline: outline, zones: [zone, crossing], beacons: beacons)])
        let found = plan.geometryWarnings()
        #expect(found.contains(.zoneOutsideOutline(zone: "elsewhere", level: 0)))
        #expect(!found.contains(.zoneOutsideOutline(zone: "crossing", level: 0)))
        #expect(found.contains(.fewBeacons(level: 0, count: 2)))
        #expect(found.count == 2)
    }
}
