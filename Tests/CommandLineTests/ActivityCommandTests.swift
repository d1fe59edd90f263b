import Foundation
import Testing

/// `indoorpos locate` on an RSSI file with the phone's activity column.
@Suite("locate: the activity column", .serialized)
struct ActivityCommandTests {
    /// The bundled office sample with an `activity` column whose cell in row k is `cell(k)`.
    static func withActivity(_ folder: ScratchFolder, _ name: String, cell: (Int) -> String) throws -> String {
        let lines = try String(contentsOfFile: LocateCommandTests.rssi, encoding: .utf8)
            .replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n")
        var text = String(lines[0]) + ",activity\n"
        for (k, line) in lines.dropFirst().enumerated() { text += String(line) + "," + cell(k) + "\n" }
        return try folder.file(name, text)
    }

    @Test(
        "an activity column turns the motion modes on: empty cells give locate --motion-modes' bytes, hints change them"
    )
    func turnsModesOn() throws {
        let folder = try ScratchFolder("activity")
        let empty = try Self.withActivity(folder, "empty.csv") { _ in "" }
        let hinted = try Self.withActivity(folder, "hinted.csv") { $0 % 2 == 0 ? "stationary" : "walking" }
        let modes = try BadInputFileTests.run([
            "locate", "--plan", LocateCommandTests.plan, "--rssi", LocateCommandTests.rssi, "--motion-modes"
        ])
        let plain = try BadInputFileTests.run([
            "locate", "--plan", LocateCommandTests.plan, "--rssi", LocateCommandTests.rssi
        ])
        let fromEmpty = try BadInputFileTests.run(["locate", "--plan", LocateCommandTests.plan, "--rssi", empty])
        let fromHints = try BadInputFileTests.run(["locate", "--plan", LocateCommandTests.plan, "--rssi", hinted])
        #expect(modes.status == 0 && fromEmpty.status == 0 && fromHints.status == 0, "\(fromHints.stderr)")
        #expect(!modes.stdout.isEmpty && fromEmpty.stdout == modes.stdout)
        #expect(modes.stdout != plain.stdout)
        #expect(fromHints.stdout != modes.stdout)
        #expect(
            fromHints.stderr.contains(
                "samples carried the phone's activity; the activity column turned on the tracker's motion modes"))
        #expect(!fromEmpty.stderr.contains("activity"))
        let monitored = try BadInputFileTests.run([
            "monitor", "--plan", LocateCommandTests.plan, "--regions", MonitorCommandTests.regions, "--rssi", hinted
        ])
        let monitoredModes = try BadInputFileTests.run([
            "monitor", "--plan", LocateCommandTests.plan, "--regions", MonitorCommandTests.regions, "--rssi",
            LocateCommandTests.rssi, "--motion-modes"
        ])
        #expect(monitored.status == 0 && monitoredModes.status == 0, "\(monitored.stderr)")
        #expect(
            monitored.stderr.contains(
                "samples carried the phone's activity, which turned on the tracker's motion modes"))
        #expect(!monitoredModes.stdout.isEmpty)
    }

    @Test("with --tracker none the hints are counted and said to be ignored; a bad cell names its line")
    func withoutTrackerAndBadCell() throws {
        let folder = try ScratchFolder("activity")
        let hinted = try Self.withActivity(folder, "hinted.csv") { _ in "walking" }
        let raw = try BadInputFileTests.run([
            "locate", "--plan", LocateCommandTests.plan, "--rssi", hinted, "--tracker", "none"
        ])
        #expect(raw.status == 0)
        #expect(raw.stderr.contains("(ignored without a tracker)"))
        let bad = try Self.withActivity(folder, "bad.csv") { $0 == 4 ? "driving" : "walking" }
        let refused = try BadInputFileTests.run(["locate", "--plan", LocateCommandTests.plan, "--rssi", bad])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("bad.csv:6: column 'activity': 'driving' is not stationary, walking"))
    }
}
