import Foundation
import Testing

@testable import PositioningIO

@Suite("indoorpos monitor", .serialized)
struct MonitorCommandTests {
    static let plan = LocateCommandTests.plan
    static let rssi = LocateCommandTests.rssi
    static let regions = LocateCommandTests.examples.appendingPathComponent("office-regions.json").path
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("monitor-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    @Test("the bundled sample gives alternating events per device and region, in time order per device")
    func sample() throws {
        let result = try Tool.run(["monitor", "--plan", Self.plan, "--regions", Self.regions, "--rssi", Self.rssi])
        #expect(result.status == 0)
        let rows = LocateCommandTests.rows(result.stdout)
        #expect(rows[0] == ["timestamp", "region", "state", "device", "refinement", "flag", "reason"])
        #expect(rows.count > 10)
        var last: [String: String] = [:]
        var lastTime: [String: Double] = [:]
        for row in rows.dropFirst() {
            let key = row[3] + "/" + row[1]
            // Assumed unsatisfied at the start: satisfied first, then alternating.
            #expect(row[2] == (last[key] == "satisfied" ? "unsatisfied" : "satisfied"), "\(row)")
            last[key] = row[2]
            let time = try #require(Double(row[0]))
            #expect(time >= lastTime[row[3]] ?? -.infinity)
            lastTime[row[3]] = time
        }
        #expect(Set(rows.dropFirst().map { $0[3] }) == ["rectangular_with_rotation", "straight_01", "straight_04"])
        #expect(result.stderr.contains("monitor: 3858 samples, 6 regions, 3 device(s)"))
    }

    @Test("rows out of time order give the same events as sorted rows")
    func unsorted() throws {
        let lines = try String(contentsOfFile: Self.rssi, encoding: .utf8).split(whereSeparator: \.isNewline)
        var body = Array(lines.dropFirst())
        var generator = SystemRandomNumberGenerator()
        body.shuffle(using: &generator)
        let shuffled = path("shuffled.csv")
        try (([lines[0]] + body).joined(separator: "\n") + "\n").write(
            toFile: shuffled, atomically: true, encoding: .utf8)
        let sorted = try Tool.run(["monitor", "--plan", Self.plan, "--regions", Self.regions, "--rssi", Self.rssi])
        let mixed = try Tool.run(["monitor", "--plan", Self.plan, "--regions", Self.regions, "--rssi", shuffled])
        #expect(mixed.status == 0)
        #expect(mixed.stdout == sorted.stdout)
    }

    @Test("jsonl has the CSV's fields; --output writes the file")
    func jsonlToFile() throws {
        let out = path("events.jsonl")
        let result = try Tool.run([
            "monitor", "--plan", Self.plan, "--regions", Self.regions, "--rssi", Self.rssi,
            "--format", "jsonl", "--output", out
        ])
        #expect(result.status == 0 && result.stdout.isEmpty)
        let lines = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n")
        let first = try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any]
        #expect(
            Set(first?.keys.map { $0 } ?? []) == [
                "timestamp", "region", "state", "device", "refinement", "flag", "reason"
            ])
    }

    @Test("a bad regions file stops with one line naming the path, and no output file")
    func badRegions() throws {
        let bad = path("bad.json")
        try #"{"regions": [{"id": "a", "zone": "lobby"}]}"#.write(toFile: bad, atomically: true, encoding: .utf8)
        let out = path("events.csv")
        let result = try Tool.run([
            "monitor", "--plan", Self.plan, "--regions", bad, "--rssi", Self.rssi, "--output", out
        ])
        #expect(result.status != 0)
        #expect(
            result.stderr
                == #"indoorpos: regions[0].zone: zone "lobby" is not in the floor plan; use a zone id from the plan's floors[].zones[].id"#
                + "\n")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test("hysteresis options are checked")
    func badOption() throws {
        let result = try Tool.run([
            "monitor", "--plan", Self.plan, "--regions", Self.regions, "--rssi", Self.rssi, "--exit-delay=-1"
        ])
        #expect(result.status != 0)
        #expect(result.stderr.contains("exitDelay must be > 0 s"))
    }
}
