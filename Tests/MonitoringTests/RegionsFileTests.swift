import BeaconModel
import Foundation
import Monitoring
import Testing

@Suite("Regions JSON")
struct RegionsFileTests {
    static let uuid = CorridorWalk.uuid.uuidString

    static func read(_ json: String) throws(MonitorError) -> RegionsFile {
        try RegionsFile(jsonData: Data(json.utf8), plan: CorridorWalk.plan)
    }

    /// The message of the error reading `json`.
    static func message(_ json: String) -> String {
        do {
            _ = try read(json)
            return "no error"
        } catch {
            return error.description
        }
    }

    @Test(
        "a misspelled key names the key meant: enterRssi, enter_rssi, hysterisis, radious, minr, region",
        arguments: [
            (
                #"{ "id": "a", "beacon": { "uuid": "UUID" }, "hysteresis": { "enterRssi": -70 } }"#,
                "regions[0].hysteresis.enterRssi", "enterRSSI"
            ),
            (
                #"{ "id": "a", "beacon": { "uuid": "UUID" }, "hysteresis": { "enter_rssi": -70 } }"#,
                "regions[0].hysteresis.enter_rssi", "enterRSSI"
            ),
            (
                #"{ "id": "a", "beacon": { "uuid": "UUID" }, "hysterisis": { "exitDelay": 5 } }"#,
                "regions[0].hysterisis", "hysteresis"
            ),
            (
                #"{ "id": "a", "circle": { "x": 1, "y": 2, "radius": 3, "radious": 4 } }"#,
                "regions[0].circle.radious", "radius"
            ),
            (
                #"{ "id": "a", "beacon": { "uuid": "UUID", "major": 1, "minr": 2 } }"#,
                "regions[0].beacon.minr", "minor"
            )
        ])
    func misspelledKeys(region: String, path: String, meant: String) {
        let json = #"{ "regions": [ "# + region.replacingOccurrences(of: "UUID", with: Self.uuid) + " ] }"
        let message = Self.message(json)
        #expect(message.contains(path) && message.contains("did you mean \"\(meant)\""), "\(message)")
        #expect(Self.message(#"{ "region": [] }"#).contains("did you mean \"regions\""))
    }

    @Test("the example of the format reads, with wildcards, circle, zone, parent and hysteresis")
    func example() throws {
        let file = try Self.read(
            """
            { "regions": [
              { "id": "site", "beacon": { "uuid": "\(Self.uuid)" } },
              { "id": "aisle", "beacon": { "uuid": "\(Self.uuid)", "major": 1 } },
              { "id": "desk-7", "beacon": { "uuid": "\(Self.uuid.lowercased())", "major": 1, "minor": 7 } },
              { "id": "printer", "circle": { "x": 12.0, "y": 4.0, "radius": 2.5, "level": 0 }, "parent": "site" },
              { "id": "shop", "zone": "shop", "hysteresis": { "exitDwell": 8, "enterCount": 3 }, "note": "ignored" } ] }
            """)
        #expect(file.regions.map(\.id) == ["site", "aisle", "desk-7", "printer", "shop"])
        #expect(file.regions[1].condition == .beacon(BeaconCondition(uuid: CorridorWalk.uuid, major: 1)))
        #expect(file.regions[2].condition == .beacon(BeaconCondition(uuid: CorridorWalk.uuid, major: 1, minor: 7)))
        #expect(
            file.regions[3].condition == .circle(CircleCondition(center: Point2D(x: 12, y: 4), radius: 2.5, level: 0)))
        #expect(file.regions[3].parent == "site")
        #expect(file.regions[4].hysteresis?.position.exitDwell == 8)
        #expect(file.regions[4].hysteresis?.beacon.enterCount == 3)
        #expect(file.regions[4].hysteresis?.position.exitMargin == Hysteresis().position.exitMargin)
        var monitor = try RegionMonitor(plan: CorridorWalk.plan)
        try monitor.add(file)
        #expect(monitor.identifiers == ["site", "aisle", "desk-7", "printer", "shop"])
    }

    @Test("a child listed before its parent is added after it")
    func parentLater() throws {
        let file = try Self.read(
            """
            {"regions": [{"id": "b", "zone": "shop", "parent": "a"}, {"id": "a", "zone": "shop"}]}
            """)
        var monitor = try RegionMonitor(plan: CorridorWalk.plan)
        try monitor.add(file)
        #expect(Set(monitor.identifiers) == ["a", "b"])
        #expect(monitor.record(for: "b")?.parent == "a")
    }

    @Test(
        "bad input is an error naming the path and the value",
        arguments: [
            (
                #"{"regions": [{"id": "a", "zone": "nowhere"}]}"#,
                #"regions[0].zone: zone "nowhere" is not in the floor plan; use a zone id from the plan's floors[].zones[].id"#
            ),
            (
                #"{"regions": [{"id": "a", "zone": "shop"}, {"id": "a", "zone": "shop"}]}"#,
                #"regions[1].id: region id "a" is already used by regions[0].id; ids must be unique"#
            ),
            (
                #"{"regions": [{"id": "c", "circle": {"x": 1, "y": 2, "radius": -2.5}}]}"#,
                "regions[0].circle.radius: radius -2.5 must be a positive number of metres"
            ),
            (
                #"{"regions": [{"id": "c", "circle": {"x": 1, "y": 2, "radius": 0}}]}"#,
                "regions[0].circle.radius: radius 0 must be a positive number of metres"
            ),
            (
                #"{"regions": [{"id": "c", "circle": {"x": 1e400, "y": 2, "radius": 1}}]}"#,
                "regions[0].circle.x: 1e400 is not a finite number"
            ),
            (
                #"{"regions": [{"id": "c", "circle": {"x": NaN, "y": 2, "radius": 1}}]}"#,
                "the regions file is not valid JSON: NaN and Infinity are not JSON; write a finite number (line 1, column 42)"
            ),
            (
                #"{"regions": [{"id": "a", "zone": "shop", "parent": "ghost"}]}"#,
                #"regions[0].parent: parent "ghost" is not a region id of this file"#
            ),
            (
                #"{"regions": [{"id": "a", "zone": "shop", "parent": "b"}, {"id": "b", "zone": "shop", "parent": "a"}]}"#,
                "regions[0].parent: parents form a cycle a → b → a; a region cannot contain itself"
            ),
            (
                #"{"regions": [{"id": "a", "zone": "shop", "parent": "a"}]}"#,
                "regions[0].parent: parents form a cycle a → a; a region cannot contain itself"
            ),
            (
                #"{"regions": [{"id": "a", "beacon": {"uuid": "not-a-uuid"}}]}"#,
                #"regions[0].beacon.uuid: "not-a-uuid" is not a UUID (expected 8-4-4-4-12 hexadecimal digits)"#
            ),
            (
                #"{"regions": [{"id": "a", "beacon": {"uuid": "F7826DA6-4FA2-4E98-8024-BC5B71E0893E", "major": 70000}}]}"#,
                "regions[0].beacon.major: 70000 is out of range 0...65535"
            ),
            (
                #"{"regions": [{"id": "a", "beacon": {"uuid": "F7826DA6-4FA2-4E98-8024-BC5B71E0893E", "minor": 3}}]}"#,
                "regions[0].beacon.major: required key is missing"
            ),
            (
                #"{"regions": [{"id": "a", "zone": "shop", "circle": {"x": 1, "y": 2, "radius": 1}}]}"#,
                #"regions[0]: a region needs exactly one of "beacon", "circle" and "zone", found 2"#
            ),
            (#"{"regions": [{"id": "", "zone": "shop"}]}"#, "regions[0].id: a region id must not be empty"),
            (#"{"regions": [{"zone": "shop"}]}"#, "regions[0].id: required key is missing"),
            (
                #"{"regions": [{"id": "a", "zone": "shop", "hysteresis": {"exitDwell": -1}}]}"#,
                "regions[0].hysteresis.exitDwell: -1 is out of range 0...86400 s"
            ),
            (#"{"regions": {}}"#, "regions: expected an array […], found an object"),
            ("", "the regions file is not valid JSON: the document is empty (line 1, column 1)")
        ])
    func badInput(json: String, expected: String) {
        #expect(Self.message(json) == expected)
    }

    @Test("a missing file is an error naming it")
    func missingFile() {
        #expect(
            throws: MonitorError.io(path: "/nonexistent/regions.json", detail: "no such file; check the regions path")
        ) {
            _ = try RegionsFile.load(path: "/nonexistent/regions.json", plan: CorridorWalk.plan)
        }
    }

    @Test("a circle on a level the plan has no floor at is refused, in a file and by add(_:identifier:)")
    func circleOnMissingLevel() throws {
        let json = #"{"regions": [{"id": "loft", "circle": {"x": 1, "y": 2, "radius": 3, "level": 4}}]}"#
        #expect(
            throws: MonitorError.unknownLevel(path: "regions[0].circle.level", id: "loft", level: 4, levels: [0])
        ) {
            try RegionsFile(jsonData: Data(json.utf8), plan: CorridorWalk.plan)
        }
        var monitor = try RegionMonitor(plan: CorridorWalk.plan)
        #expect(throws: MonitorError.unknownLevel(path: "loft", id: "loft", level: 4, levels: [0])) {
            try monitor.add(
                .circle(CircleCondition(center: Point2D(x: 1, y: 2), radius: 3, level: 4)), identifier: "loft")
        }
        #expect(
            MonitorError.unknownLevel(path: "regions[0].circle.level", id: "loft", level: 4, levels: Array(0..<20))
                .description
                == "regions[0].circle.level: region \"loft\" is a circle on level 4, which the plan has no floor at (its levels: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, … (20 floors)); it could never be entered"
        )
    }
}
