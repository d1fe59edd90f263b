import Foundation
import TestSupport
import Testing

@testable import PositioningIO

@Suite("indoorpos locate reads once", .serialized)
struct LocateOnePassTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("locate-once-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// The bundled sample repeated for eight devices (devices one after another, each in time
    /// order): more than one output block of positions.
    func manyDevices() throws -> (header: Substring, rows: [Substring]) {
        let lines = try String(contentsOfFile: LocateCommandTests.rssi, encoding: .utf8).split(
            whereSeparator: \.isNewline)
        var rows: [Substring] = []
        for copy in 0..<8 {
            rows += lines.dropFirst().map { line in
                var fields = line.split(separator: ",", omittingEmptySubsequences: false)
                fields[1] = "copy\(copy)-" + fields[1]
                return Substring(fields.joined(separator: ","))
            }
        }
        return (lines[0], rows)
    }

    func write(_ header: Substring, _ rows: [Substring], _ name: String) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try (([header] + rows).joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test(
        "a row far out of order near the end starts over sorted, after output was written, to a file and to standard output"
    )
    func lateDisorderStartsOver() throws {
        let (header, rows) = try manyDevices()
        var late = rows
        // Move one row of the last device 30 rows later: more than a second behind its device.
        let moved = late.remove(at: late.count - 40)
        late.insert(moved, at: late.count - 10)
        let sortedPath = try write(header, rows, "sorted.csv")
        let latePath = try write(header, late, "late.csv")
        let plan = LocateCommandTests.plan
        let expected = try Tool.run(["locate", "--plan", plan, "--rssi", sortedPath])
        #expect(expected.stdout.utf8.count > 1 << 16)
        let lateFile = directory.appendingPathComponent("late-fixes.csv").path
        let toFile = try Tool.run(["locate", "--plan", plan, "--rssi", latePath, "--output", lateFile])
        #expect(toFile.status == 0)
        #expect(toFile.stderr.contains("sorted in memory"))
        let toStandardOutput = try Tool.run(["locate", "--plan", plan, "--rssi", latePath])
        // Sorting groups the devices in name order, the same order the sorted file has.
        #expect(try String(contentsOfFile: lateFile, encoding: .utf8) == expected.stdout)
        #expect(toStandardOutput.stdout == expected.stdout)
    }

    @Test(
        "rows slightly out of order with devices give what the engine gives with the reorder delay the whole file needs"
    )
    func slightDisorder() throws {
        let (header, rows) = try manyDevices()
        var jittered = rows
        var generator = SeededGenerator(seed: 12)
        for index in 0..<(jittered.count - 1) where Int.random(in: 0..<4, using: &generator) == 0 {
            jittered.swapAt(index, index + 1)
        }
        let input = try write(header, jittered, "jittered.csv")
        let mixed = try Tool.run(["locate", "--plan", LocateCommandTests.plan, "--rssi", input])
        #expect(mixed.status == 0)
        #expect(!mixed.stderr.contains("sorted in memory"))

        // The same by hand: the largest step back within a device, then the engine with that
        // delay (+ 0.05 s) over the rows as they come.
        var samples: [RSSISample] = []
        let reader = try RSSISampleReader(path: input)
        while let sample = try reader.next() { samples.append(sample) }
        var latest: [String?: Double] = [:]
        var stepBack = 0.0
        for sample in samples {
            let last = latest[sample.device] ?? -.infinity
            stepBack = max(stepBack, last - sample.timestamp)
            latest[sample.device] = max(last, sample.timestamp)
        }
        #expect(stepBack > 0 && stepBack < 0.95)
        var engine = try PositioningEngine(
            plan: FloorPlan.load(path: LocateCommandTests.plan),
            configuration: .init(reorderDelay: stepBack + 0.05))
        let expectedPath = directory.appendingPathComponent("expected.csv").path
        let writer = try ReportWriter(
            output: try OutputFile(path: expectedPath), format: .csv, includeDevice: true,
            plan: FloorPlan.load(path: LocateCommandTests.plan))
        for sample in samples {
            engine.push(sample)
            engine.pull().forEach(writer.write)
        }
        engine.finish().forEach(writer.write)
        try writer.finish()
        #expect(mixed.stdout == (try String(contentsOfFile: expectedPath, encoding: .utf8)))
    }
}
