import Foundation
import Testing

/// A plan with thousands of floors costs memory linear in the floors: each floor's settings used
/// to copy the table of every floor's elevation (5,000 floors: 687 MB; 10,000: 2.6 GB).
@Suite("Memory linear in the number of floors")
struct ManyFloorsTests {
    @Test("locate on a 5,000-floor plan runs within 400 MB of address space")
    func fiveThousandFloors() throws {
        let folder = try ScratchFolder("floors")
        let uuid = "B1E5E0A1-7D2C-4C55-9A51-5D3E2C1A0B0C"
        var floors: [String] = []
        for k in 0..<5000 {
            let beacons = [(1, 1), (19, 1), (19, 14), (1, 14)].enumerated().map { m, p in
                #"{"uuid": "\#(uuid)", "major": \#(k + 1), "minor": \#(m + 1), "x": \#(p.0), "y": \#(p.1), "z": \#(3 * k + 2)}"#
            }
            floors.append(
                #"{"level": \#(k), "elevation": \#(3 * k), "outline": [[0, 0], [20, 0], [20, 15], [0, 15]], "beacons": [\#(beacons.joined(separator: ", "))]}"#
            )
        }
        let plan = try folder.file(
            "plan.json",
            #"{"formatVersion": 1, "name": "tall", "defaults": {"measuredPower": -59, "pathLossExponent": 2, "receiverHeight": 1.2}, "floors": [\#(floors.joined(separator: ",\n"))]}"#
        )
        var rows = ["timestamp,uuid,major,minor,rssi"]
        for t in 0..<30 { for m in 1...4 { rows.append("\(t).\(m),\(uuid),1,\(m),-65") } }
        let rssi = try folder.file("rssi.csv", rows.joined(separator: "\n") + "\n")
        let binary = try #require(Tool.binary)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // 400 MB of address space: ample for linear memory (about 45 MB resident), far below
        // what the quadratic copies needed. Not under a sanitizer (Scripts/sanitize.sh sets
        // INDOORPOS_SANITIZER): its shadow memory alone reserves terabytes of address space, so
        // the limited binary could not start; the run is then only required to succeed.
        let limit = ProcessInfo.processInfo.environment["INDOORPOS_SANITIZER"] == nil ? "ulimit -v 400000 && " : ""
        process.arguments = [
            "-c", limit + "exec \"$0\" locate --plan \"$1\" --rssi \"$2\" --output /dev/null --quiet",
            binary.path, plan, rssi
        ]
        let err = Pipe()
        process.standardError = err
        try process.run()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(message)")
    }
}
