import Foundation
import Testing

@testable import PositioningIO

@Suite("indoorpos locate", .serialized)
struct LocateCommandTests {
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Docs/Examples")
    static let plan = examples.appendingPathComponent("office-plan.json").path
    static let rssi = examples.appendingPathComponent("office-rssi.csv").path
    static let calibration = examples.appendingPathComponent("office-calibration.json").path
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("locate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    static func rows(_ csv: String) -> [[String]] {
        csv.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
    }

    @Test("the bundled sample locates: one row per device and epoch, finite, on the plan's floor")
    func sample() throws {
        let result = try Tool.run([
            "locate", "--plan", Self.plan, "--rssi", Self.rssi, "--calibration", Self.calibration
        ])
        #expect(result.status == 0)
        let rows = Self.rows(result.stdout)
        // The plan has zones: the zone's probability is the last column.
        #expect(
            rows[0] == [
                "timestamp", "x", "y", "floor", "accuracy", "device", "z", "zone", "source", "beacons",
                "zone_probability"
            ])
        #expect(rows.dropFirst().allSatisfy { Double($0[10]).map { (0...1).contains($0) } ?? false })
        #expect(rows.count > 150)
        #expect(Set(rows.dropFirst().map { $0[5] }) == ["rectangular_with_rotation", "straight_01", "straight_04"])
        for row in rows.dropFirst() {
            for column in [0, 1, 2, 4] { #expect(Double(row[column])?.isFinite == true) }
            #expect(row[3] == "0")
            #expect(["west", "centre", "east"].contains(row[7]))
        }
        #expect(result.stderr.contains("locate: 3858 samples, 3858 used"))
    }

    @Test("rows out of time order give the same positions as sorted rows")
    func unsorted() throws {
        let lines = try String(contentsOfFile: Self.rssi, encoding: .utf8).split(whereSeparator: \.isNewline)
        var body = Array(lines.dropFirst())
        var generator = SystemRandomNumberGenerator()
        body.shuffle(using: &generator)
        let shuffled = path("shuffled.csv")
        try (([lines[0]] + body).joined(separator: "\n") + "\n").write(
            toFile: shuffled, atomically: true, encoding: .utf8)
        let sorted = try Tool.run(["locate", "--plan", Self.plan, "--rssi", Self.rssi])
        let mixed = try Tool.run(["locate", "--plan", Self.plan, "--rssi", shuffled])
        #expect(mixed.status == 0)
        #expect(mixed.stdout == sorted.stdout)
        #expect(mixed.stderr.contains("sorted in memory"))
    }

    @Test("a malformed row stops with its line and column, and leaves no output file")
    func malformed() throws {
        let bad = path("bad.csv")
        try
            "timestamp,uuid,major,minor,rssi\n0,B1E5E0A1-7D2C-4C55-9A51-5D3E2C1A0B0C,1,1,-60\n1,B1E5E0A1-7D2C-4C55-9A51-5D3E2C1A0B0C,1,x,-61\n"
            .write(toFile: bad, atomically: true, encoding: .utf8)
        let output = path("fixes.csv")
        let result = try Tool.run(["locate", "--plan", Self.plan, "--rssi", bad, "--output", output])
        #expect(result.status != 0)
        #expect(result.stderr == "indoorpos: \(bad):3: column 'minor': 'x' is not an integer in 0...65535\n")
        #expect(!FileManager.default.fileExists(atPath: output))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["bad.csv"])
        let skipped = try Tool.run(["locate", "--plan", Self.plan, "--rssi", bad, "--skip-bad-rows", "--output", output]
        )
        #expect(skipped.status == 0)
        #expect(skipped.stderr.contains("1 malformed row(s)"))
        #expect(FileManager.default.fileExists(atPath: output))
    }

    @Test("positive RSSI and unknown beacons are skipped and counted, not fatal")
    func skippedSamples() throws {
        let file = path("odd.csv")
        var text = "timestamp,uuid,major,minor,rssi\n"
        for i in 0..<40 {
            text += "\(Double(i) * 0.1),B1E5E0A1-7D2C-4C55-9A51-5D3E2C1A0B0C,1,\(i % 12 + 1),-70\n"
        }
        text += "4.5,B1E5E0A1-7D2C-4C55-9A51-5D3E2C1A0B0C,1,7,42\n4.6,B1E5E0A1-7D2C-4C55-9A51-5D3E2C1A0B0C,9,9,-60\n"
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        let result = try Tool.run(["locate", "--plan", Self.plan, "--rssi", file])
        #expect(result.status == 0)
        #expect(result.stderr.contains("1 with an implausible rssi"))
        #expect(result.stderr.contains("1 of beacons not in the plan"))
    }

    @Test("JSON lines and GeoJSON carry the same positions as CSV")
    func formats() throws {
        let csv = Self.rows(try Tool.run(["locate", "--plan", Self.plan, "--rssi", Self.rssi]).stdout)
        let jsonl = try Tool.run(["locate", "--plan", Self.plan, "--rssi", Self.rssi, "--format", "jsonl"]).stdout
            .split(separator: "\n")
        #expect(jsonl.count == csv.count - 1)
        let first = try #require(try JSONSerialization.jsonObject(with: Data(jsonl[0].utf8)) as? [String: Any])
        #expect((first["x"] as? Double).map { String(format: "%.3f", $0) } == csv[1][1])
        // The bundled plan has no georeference: GeoJSON is refused with one line.
        let refused = try Tool.run(["locate", "--plan", Self.plan, "--rssi", Self.rssi, "--format", "geojson"])
        #expect(refused.status != 0 && refused.stderr.contains("no \"georeference\""))
        #expect(refused.stderr.split(separator: "\n").count == 1 && refused.stdout.isEmpty)
        var planText = try String(contentsOfFile: Self.plan, encoding: .utf8)
        planText = planText.replacingOccurrences(
            of: "\"floors\"",
            with: "\"georeference\": {\"latitude\": 41.0849, \"longitude\": 29.0510, \"bearing\": 0}, \"floors\"")
        let geoPlan = path("geo-plan.json")
        try planText.write(toFile: geoPlan, atomically: true, encoding: .utf8)
        let geo = try Tool.run(["locate", "--plan", geoPlan, "--rssi", Self.rssi, "--format", "geojson", "--smooth"])
        #expect(geo.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(geo.stdout.utf8)) as? [String: Any])
        let features = try #require(object["features"] as? [[String: Any]])
        let types = features.map { ($0["geometry"] as? [String: Any])?["type"] as? String ?? "" }
        #expect(types.filter { $0 == "Point" }.count == csv.count - 1)
        #expect(types.filter { $0 == "LineString" }.count == 3)  // one track per device
        #expect(types.first == "Polygon")  // the floor outline
        // Every fix lands within the 21 × 18 m office around the origin (Istanbul, not the Gulf of Guinea).
        for feature in features where (feature["geometry"] as? [String: Any])?["type"] as? String == "Point" {
            let c = try #require((feature["geometry"] as? [String: Any])?["coordinates"] as? [Double])
            #expect(c[0] > 29.0509 && c[0] < 29.0513 && c[1] > 41.0848 && c[1] < 41.0851)
        }
    }

    @Test("--fallback outline-posterior moves only the fallback rows of single scans")
    func fallbackOption() throws {
        // Two devices heard by one beacon each, then the sample's three walks unchanged.
        let lines = try String(contentsOfFile: Self.rssi, encoding: .utf8).split(whereSeparator: \.isNewline)
        let uuid = "B1E5E0A1-7D2C-4C55-9A51-5D3E2C1A0B0C"
        let scans = ["1581252400.5000,scan-a,\(uuid),1,1,-85", "1581252400.5000,scan-b,\(uuid),1,7,-70"]
        let input = path("scans.csv")
        try (([String(lines[0])] + scans + lines.dropFirst().map(String.init)).joined(separator: "\n")).write(
            toFile: input, atomically: true, encoding: .utf8)
        let centroid = try Tool.run(["locate", "--plan", Self.plan, "--rssi", input, "--fallback", "weighted-centroid"])
        let posterior = try Tool.run(["locate", "--plan", Self.plan, "--rssi", input, "--fallback", "outline-posterior"]
        )
        #expect(centroid.status == 0 && posterior.status == 0)
        // The summary counts the fallback positions (the two scans; the walks have none).
        #expect(centroid.stderr.contains("positions (2 of them fallbacks: too few beacons"))
        #expect(posterior.stderr.contains("positions (2 of them fallbacks: too few beacons"))
        let a = Self.rows(centroid.stdout), b = Self.rows(posterior.stdout)
        #expect(a.count == b.count)
        for (x, y) in zip(a, b) {
            if ["scan-a", "scan-b"].contains(x[5]) {
                #expect(x[8] == "fallback" && y[8] == "fallback")
                #expect(x[1] != y[1] || x[2] != y[2])
            } else {
                #expect(x == y)
            }
        }
    }

    @Test("The detection posterior with too little to learn from: said, and the centroid's rows")
    func detectionPosteriorWithoutACurve() throws {
        // A one-beacon scan and the first five seconds of the sample's first walk: five
        // determined fixes.
        let lines = try String(contentsOfFile: Self.rssi, encoding: .utf8).split(whereSeparator: \.isNewline)
        let first = lines[1].split(separator: ",")
        let start = try #require(Double(first[0]))
        let early = lines.dropFirst().filter {
            let cells = $0.split(separator: ",")
            return cells[1] == first[1] && Double(cells[0])! < start + 5
        }
        let uuid = "B1E5E0A1-7D2C-4C55-9A51-5D3E2C1A0B0C"
        let input = path("scans-detection.csv")
        try (([String(lines[0]), "\(start),scan-a,\(uuid),1,1,-85"] + early.map(String.init)).joined(separator: "\n"))
            .write(toFile: input, atomically: true, encoding: .utf8)
        let centroid = try Tool.run(["locate", "--plan", Self.plan, "--rssi", input, "--fallback", "weighted-centroid"])
        // Learned as the input goes (the default), and by a first pass.
        for (extra, needed) in [([], 32), (["--detection-first-pass"], 20)] {
            let detection = try Tool.run(["locate", "--plan", Self.plan, "--rssi", input] + extra)
            #expect(detection.status == 0, "\(detection.stderr)")
            #expect(detection.stderr.contains("no detection curve (5 determined fix(es)"), "\(detection.stderr)")
            #expect(
                detection.stderr.contains("at least \(needed) are needed): fallbacks are weighted centroids"),
                "\(detection.stderr)")
            #expect(detection.stdout == centroid.stdout)
            #expect(detection.stdout.contains("scan-a"))
        }
    }

    @Test(
        "bad arguments and files give one line on stderr and a non-zero status",
        arguments: [
            ["locate", "--plan", "/nonexistent/plan.json", "--rssi", "/nonexistent/rssi.csv"],
            ["locate", "--plan", "PLAN", "--rssi", "/nonexistent/rssi.csv"],
            ["locate", "--plan", "PLAN", "--rssi", "RSSI", "--epoch", "0"],
            ["locate", "--plan", "PLAN", "--rssi", "RSSI", "--tracker", "none", "--smooth"],
            ["locate", "--plan", "PLAN", "--rssi", "RSSI", "--calibration", "/nonexistent/cal.json"],
            ["locate", "--plan", "PLAN", "--rssi", "RSSI", "--fallback", "nearest"]
        ])
    func badArguments(_ arguments: [String]) throws {
        let resolved = arguments.map { $0 == "PLAN" ? Self.plan : $0 == "RSSI" ? Self.rssi : $0 }
        let result = try Tool.run(resolved)
        #expect(result.status != 0)
        #expect(result.stdout.isEmpty)
        #expect(!result.stderr.isEmpty)
        #expect(!result.stderr.contains("Fatal error"))
    }
}
