import Foundation
import Testing

@testable import BeaconModel

/// One broken document: the sample plan with one piece of text replaced, and the error it must give.
struct ValidationCase: Sendable, CustomTestStringConvertible {
    let target: String
    let replacement: String
    let path: String
    let message: String

    init(_ target: String, _ replacement: String, path: String, _ message: String) {
        self.target = target
        self.replacement = replacement
        self.path = path
        self.message = message
    }

    var testDescription: String { "\(path): \(replacement)" }
}

@Suite("FloorPlan validation names the JSON path and the value")
struct FloorPlanValidationTests {
    static let beacon3 = #""major": 2, "minor": 4, "x": 3, "y": 12"#
    static let uuid = "F7826DA6-4FA2-4E98-8024-BC5B71E0893E"

    static let cases: [ValidationCase] = [
        // Identity parts.
        ValidationCase(
            beacon3, #""major": 70000, "minor": 4, "x": 3, "y": 12"#,
            path: "floors[1].beacons[3].major", "70000 is out of range 0...65535"),
        ValidationCase(
            beacon3, #""major": -1, "minor": 4, "x": 3, "y": 12"#,
            path: "floors[1].beacons[3].major", "-1 is out of range 0...65535"),
        ValidationCase(
            beacon3, #""major": 2, "minor": 65536, "x": 3, "y": 12"#,
            path: "floors[1].beacons[3].minor", "65536 is out of range 0...65535"),
        ValidationCase(
            beacon3, #""major": 1.5, "minor": 4, "x": 3, "y": 12"#,
            path: "floors[1].beacons[3].major", "expected an integer, found 1.5"),
        ValidationCase(
            beacon3, #""major": "2", "minor": 4, "x": 3, "y": 12"#,
            path: "floors[1].beacons[3].major", "expected an integer, found the string \"2\""),
        ValidationCase(
            beacon3, #""major": true, "minor": 4, "x": 3, "y": 12"#,
            path: "floors[1].beacons[3].major", "expected an integer, found true"),
        ValidationCase(
            beacon3, #""major": 2, "minor": 1e400, "x": 3, "y": 12"#,
            path: "floors[1].beacons[3].minor", "1e400 is not a finite number"),
        ValidationCase(
            beacon3, #""minor": 4, "x": 3, "y": 12"#,
            path: "floors[1].beacons[3].major", "required key is missing"),
        ValidationCase(
            beacon3, #""major": null, "minor": 4, "x": 3, "y": 12"#,
            path: "floors[1].beacons[3].major", "required key is missing"),
        ValidationCase(
            #""uuid": "F7826DA6-4FA2-4E98-8024-BC5B71E0893E", "major": 2, "minor": 4"#,
            #""uuid": "F7826DA6-4FA2-4E98-8024-BC5B71E0893", "major": 2, "minor": 4"#,
            path: "floors[1].beacons[3].uuid",
            "\"F7826DA6-4FA2-4E98-8024-BC5B71E0893\" is not a UUID (expected 8-4-4-4-12 hexadecimal digits)"),
        ValidationCase(
            #""uuid": "F7826DA6-4FA2-4E98-8024-BC5B71E0893E", "major": 2, "minor": 4"#,
            #""uuid": 42, "major": 2, "minor": 4"#,
            path: "floors[1].beacons[3].uuid", "expected a string, found 42"),
        ValidationCase(
            #""uuid": "F7826DA6-4FA2-4E98-8024-BC5B71E0893E", "major": 2, "minor": 4"#,
            #""major": 2, "minor": 4"#,
            path: "floors[1].beacons[3].uuid", "required key is missing"),
        // Duplicates (the uuid compares case-insensitively).
        ValidationCase(
            beacon3, #""major": 2, "minor": 3, "x": 3, "y": 12"#,
            path: "floors[1].beacons[3]", "beacon \(uuid):2:3 is already placed at floors[1].beacons[2]"),
        ValidationCase(
            #""uuid": "F7826DA6-4FA2-4E98-8024-BC5B71E0893E", "major": 2, "minor": 1,"#,
            #""uuid": "f7826da6-4fa2-4e98-8024-bc5b71e0893e", "major": 1, "minor": 7,"#,
            path: "floors[1].beacons[0]", "beacon \(uuid):1:7 is already placed at floors[0].beacons[0]"),
        ValidationCase(
            #""level": 1,"#, #""level": 0,"#,
            path: "floors[1].level", "level 0 is already used by floors[0].level"),
        ValidationCase(
            #"{ "id": "office""#, #"{ "id": "hall""#,
            path: "floors[1].zones[1].id", "zone id \"hall\" is already used by floors[1].zones[0].id on the same floor"
        ),
        // Positions and numbers.
        ValidationCase(
            beacon3, #""major": 2, "minor": 4, "x": "3", "y": 12"#,
            path: "floors[1].beacons[3].x", "expected a number, found the string \"3\""),
        ValidationCase(
            beacon3, #""major": 2, "minor": 4, "x": false, "y": 12"#,
            path: "floors[1].beacons[3].x", "expected a number, found false"),
        ValidationCase(
            beacon3, #""major": 2, "minor": 4, "x": 3, "y": -1e400"#,
            path: "floors[1].beacons[3].y", "-1e400 is not a finite number"),
        ValidationCase(
            beacon3, #""major": 2, "minor": 4, "x": 3"#,
            path: "floors[1].beacons[3].y", "required key is missing"),
        ValidationCase(
            beacon3, #""major": 2, "minor": 4, "x": 3, "y": 12, "z": [1]"#,
            path: "floors[1].beacons[3].z", "expected a number, found an array"),
        ValidationCase(
            #""measuredPower": -61.5"#, #""measuredPower": 5"#,
            path: "floors[1].beacons[3].measuredPower", "5 is out of range -120...0 dBm"),
        ValidationCase(
            #""measuredPower": -61.5"#, #""measuredPower": -130.25"#,
            path: "floors[1].beacons[3].measuredPower", "-130.25 is out of range -120...0 dBm"),
        ValidationCase(
            #""pathLossExponent": 1.8"#, #""pathLossExponent": 7"#,
            path: "floors[1].beacons[3].pathLossExponent", "7 is out of range 0.5...6"),
        ValidationCase(
            #""pathLossExponent": 1.8"#, #""pathLossExponent": 0.2"#,
            path: "floors[1].beacons[3].pathLossExponent", "0.2 is out of range 0.5...6"),
        ValidationCase(
            #""pathLossExponent": 1.8"#, #""pathLossExponent": 1E+999"#,
            path: "floors[1].beacons[3].pathLossExponent", "1E+999 is not a finite number"),
        ValidationCase(
            #""measuredPower": -59,"#, #""measuredPower": 10,"#,
            path: "defaults.measuredPower", "10 is out of range -120...0 dBm"),
        ValidationCase(
            #""pathLossExponent": 2,"#, #""pathLossExponent": 0,"#,
            path: "defaults.pathLossExponent", "0 is out of range 0.5...6"),
        ValidationCase(
            #""receiverHeight": 1.2"#, #""receiverHeight": 1e999"#,
            path: "defaults.receiverHeight", "1e999 is not a finite number"),
        ValidationCase(
            #""receiverHeight": 1.2"#, #""receiverHeight": -5"#,
            path: "defaults.receiverHeight", "-5.0 is out of range 0...20 m"),
        ValidationCase(
            #""receiverHeight": 1.2"#, #""receiverHeight": 1e6"#,
            path: "defaults.receiverHeight", "1000000.0 is out of range 0...20 m"),
        ValidationCase(
            #""defaults": {"#, #""defaults": 3, "unused": {"#,
            path: "defaults", "expected an object {…}, found 3"),
        ValidationCase(
            #""level": 1,"#, #""level": 1.5,"#,
            path: "floors[1].level", "expected an integer, found 1.5"),
        ValidationCase(
            #""level": 1,"#, #""level": "1","#,
            path: "floors[1].level", "expected an integer, found the string \"1\""),
        ValidationCase(
            #""level": 1,"#, #""level": 1e10,"#,
            path: "floors[1].level", "1e10 is out of range -2147483648...2147483647"),
        ValidationCase(
            #""level": 1,"#, "",
            path: "floors[1].level", "required key is missing"),
        ValidationCase(
            #""elevation": 3.5"#, #""elevation": "3.5 m""#,
            path: "floors[1].elevation", "expected a number, found the string \"3.5 m\""),
        // Polygons.
        ValidationCase(
            #""polygon": [[5, 5], [9, 5], [9, 9], [5, 9]]"#, #""polygon": [[5, 5], [9, 5]]"#,
            path: "floors[1].zones[1].polygon", "a polygon needs at least 3 points, has 2"),
        ValidationCase(
            #""polygon": [[5, 5], [9, 5], [9, 9], [5, 9]]"#, #""polygon": [[5, 5], [9, 9], [9, 5], [5, 9]]"#,
            path: "floors[1].zones[1].polygon",
            "edges 0 and 2 cross (edge k joins vertex k to the next); list the vertices in order around the outline"),
        ValidationCase(
            #""polygon": [[5, 5], [9, 5], [9, 9], [5, 9]]"#, #""polygon": [[5, 5], [9, 5], [9, 5], [5, 9]]"#,
            path: "floors[1].zones[1].polygon", "vertex 1 repeats the next vertex; remove one of them"),
        ValidationCase(
            #""polygon": [[5, 5], [9, 5], [9, 9], [5, 9]]"#, #""polygon": [[0, 0], [5, 0], [10, 0]]"#,
            path: "floors[1].zones[1].polygon",
            "the polygon has no area (its points lie on one line); give the corners of the region"),
        ValidationCase(
            #""polygon": [[5, 5], [9, 5], [9, 9], [5, 9]]"#, #""polygon": [[5, 5], [9, 5, 0], [9, 9], [5, 9]]"#,
            path: "floors[1].zones[1].polygon[1]", "expected a point [x, y] of two numbers, found an array"),
        ValidationCase(
            #""polygon": [[5, 5], [9, 5], [9, 9], [5, 9]]"#, #""polygon": [[5, 5], [9, "5"], [9, 9], [5, 9]]"#,
            path: "floors[1].zones[1].polygon[1][1]", "expected a number, found the string \"5\""),
        ValidationCase(
            #""polygon": [[5, 5], [9, 5], [9, 9], [5, 9]]"#, #""polygon": [[5, 5], [9, 5], [9, 1e400], [5, 9]]"#,
            path: "floors[1].zones[1].polygon[2][1]", "1e400 is not a finite number"),
        ValidationCase(
            #""polygon": [[5, 5], [9, 5], [9, 9], [5, 9]]"#, #""polygon": {"x": 5}"#,
            path: "floors[1].zones[1].polygon", "expected a polygon [[x, y], …], found an object"),
        ValidationCase(
            #"{ "id": "office", "name": "Office", "polygon": [[5, 5], [9, 5], [9, 9], [5, 9]] }"#,
            #"{ "id": "office", "name": "Office" }"#,
            path: "floors[1].zones[1].polygon", "required key is missing"),
        ValidationCase(
            #"{ "id": "office""#, #"{ "id": """#,
            path: "floors[1].zones[1].id",
            "a zone id must not be empty; give the zone a short name such as \"lobby\""),
        ValidationCase(
            #"{ "id": "office""#, #"{ "id": 7"#,
            path: "floors[1].zones[1].id", "expected a string, found 7"),
        ValidationCase(
            #""elevation": 0, "outline": [[0, 0], [20, 0], [20, 15], [0, 15]]"#,
            #""elevation": 0, "outline": [[0, 0], [20, 15], [20, 0], [0, 15]]"#,
            path: "floors[0].outline",
            "edges 0 and 2 cross (edge k joins vertex k to the next); list the vertices in order around the outline"),
        // Structure and version.
        ValidationCase(
            #""formatVersion": 1,"#, #""formatVersion": 2,"#,
            path: "formatVersion",
            "format version 2 is newer than this library reads (1); update the library or save the plan as version 1"),
        ValidationCase(
            #""formatVersion": 1,"#, #""formatVersion": 0,"#,
            path: "formatVersion", "0 is out of range 1...1"),
        ValidationCase(
            #""formatVersion": 1,"#, #""formatVersion": "1","#,
            path: "formatVersion", "expected an integer, found the string \"1\""),
        ValidationCase(
            #""name": "Test office","#, #""name": ["Test office"],"#,
            path: "name", "expected a string, found an array"),
        ValidationCase(
            #""floors": ["#, #""floors": null, "old": ["#,
            path: "floors", "required key is missing"),
        ValidationCase(
            #""floors": ["#, #""floors": 1, "old": ["#,
            path: "floors", "expected an array […], found 1"),
        ValidationCase(
            #"{ "uuid": "F7826DA6-4FA2-4E98-8024-BC5B71E0893E", "major": 2, "minor": 1, "x": 3, "y": 3 }"#,
            #""F7826DA6-4FA2-4E98-8024-BC5B71E0893E:2:1""#,
            path: "floors[1].beacons[0]",
            "expected an object {…}, found the string \"F7826DA6-4FA2-4E98-8024-BC5B71E0893E:2:1\"")
    ]

    @Test("each broken document gives its error, naming path and value", arguments: cases)
    func brokenDocument(_ testCase: ValidationCase) {
        let json = SamplePlans.twoFloors(replacing: testCase.target, with: testCase.replacement)
        do {
            let plan = try FloorPlan(jsonData: Data(json.utf8))
            Issue.record("accepted a broken plan: \(plan.name)")
        } catch {
            #expect(error.path == testCase.path)
            #expect(error.description == "\(testCase.path): \(testCase.message)")
            #expect(!error.description.contains("\n"))
        }
    }

    @Test(
        "strings from the file are quoted and escaped, so a message stays on one line",
        arguments: [
            (
                #"{ "id": "office""#, #"{ "id": "hall\nway\u0007\"x\"""#, #"{ "id": "hall""#,
                #"{ "id": "hall\nway\u0007\"x\"""#,
                "floors[1].zones[1].id",
                #"zone id "hall\nway\u0007\"x\"" is already used by floors[1].zones[0].id on the same floor"#
            ),
            (
                #""uuid": "F7826DA6-4FA2-4E98-8024-BC5B71E0893E", "major": 2, "minor": 4"#,
                #""uuid": "F7826DA6\t4FA2", "major": 2, "minor": 4"#, "", "",
                "floors[1].beacons[3].uuid", #""F7826DA6\t4FA2" is not a UUID (expected 8-4-4-4-12 hexadecimal digits)"#
            )
        ] as [(String, String, String, String, String, String)])
    func escapedStrings(
        _ target: String, _ replacement: String, _ target2: String, _ replacement2: String,
        path: String, message: String
    ) {
        var json = SamplePlans.twoFloors(replacing: target, with: replacement)
        if !target2.isEmpty { json = json.replacingOccurrences(of: target2, with: replacement2) }
        do {
            _ = try FloorPlan(jsonData: Data(json.utf8))
            Issue.record("accepted a broken plan")
        } catch {
            #expect(error.path == path)
            #expect(error.description == "\(path): \(message)")
            #expect(!error.description.contains("\n"))
        }
    }

    @Test("a top level that is not an object names the top level")
    func topLevel() {
        #expect(throws: FloorPlanError.wrongType(path: "", expected: "an object {…}", found: "an array")) {
            try FloorPlan(jsonData: Data("[]".utf8))
        }
        let error = FloorPlanError.wrongType(path: "", expected: "an object {…}", found: "an array")
        #expect(error.description == "top level: expected an object {…}, found an array")
    }

    @Test("the brief's example message, word for word")
    func exampleMessage() {
        let json = SamplePlans.twoFloors(replacing: Self.beacon3, with: #""major": 70000, "minor": 4, "x": 3, "y": 12"#)
        #expect(
            throws: FloorPlanError.outOfRange(path: "floors[1].beacons[3].major", value: "70000", range: "0...65535")
        ) {
            try FloorPlan(jsonData: Data(json.utf8))
        }
    }
}
