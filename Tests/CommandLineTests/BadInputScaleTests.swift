import Foundation
import Testing

/// Inputs of the bad-input pass of issue 47 (part B) that made a command's memory or time blow
/// up: each runs the command as a subprocess under a resource limit (`ulimit -v` for address
/// space, `ulimit -t` for CPU seconds) far above what the command needs now and far below what
/// it needed before, so the test fails (the process is killed) instead of hanging or passing
/// by luck; no test asserts a time.
@Suite("Bad input: sizes that were quadratic or unbounded", .serialized)
struct BadInputScaleTests {
    static let uuid = "B1E5E0A1-7D2C-4C55-9A51-5D3E2C1A0B0C"
    static let plan = LocateCommandTests.plan
    static let rssi = LocateCommandTests.rssi

    /// Under a sanitizer (Scripts/sanitize.sh sets INDOORPOS_SANITIZER) no limit is set: the
    /// shadow memory reserves terabytes of address space, and the checks slow everything down;
    /// the run is then only required to succeed.
    static var underSanitizer: Bool { ProcessInfo.processInfo.environment["INDOORPOS_SANITIZER"] != nil }

    /// Runs `indoorpos` with `arguments` after `limits` (shell `ulimit` commands), standard
    /// output to /dev/null.
    static func run(_ arguments: [String], limits: String) throws -> (status: Int32, stderr: String) {
        let binary = try #require(Tool.binary)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        let prefix = underSanitizer ? "" : limits + " && "
        process.arguments = ["-c", prefix + "exec \"$0\" \"$@\" >/dev/null", binary.path] + arguments
        let err = Pipe()
        process.standardError = err
        try process.run()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, message)
    }

    @Test("monitor with 2,000 circles of radius 60 m runs within 400 MB of address space (it took about 1 GB)")
    func manyLargeCircles() throws {
        let folder = try ScratchFolder("large-circles")
        // Each circle's box covers 3,721 cells of 2 m: just under the 4,096 at which the index
        // sets a region aside, so each was kept in every one of them (1,000 circles: 456 MB).
        var regions: [String] = []
        for index in 0..<2000 {
            let x = Double(index % 50) * 0.4, y = Double(index / 50) * 0.45
            regions.append(#"{"id": "c\#(index)", "circle": {"x": \#(x), "y": \#(y), "radius": 60, "level": 0}}"#)
        }
        let file = try folder.file("regions.json", #"{"regions": [\#(regions.joined(separator: ",\n"))]}"#)
        let output = folder.path("events.csv")
        let result = try Self.run(
            ["monitor", "--plan", Self.plan, "--regions", file, "--rssi", Self.rssi, "--output", output],
            limits: "ulimit -v 400000")
        #expect(result.status == 0, "\(result.stderr)")
        // Every circle (centred in the office) covers it all: each device enters each once.
        let events = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n").dropFirst()
        #expect(events.count == 3 * 2000)
        #expect(events.allSatisfy { $0.contains(",satisfied,") })
    }

    /// `count` rows of one device and 12 beacons, every one at the same timestamp.
    static func equalTimestamps(_ count: Int, in folder: ScratchFolder) throws -> String {
        var text = "timestamp,uuid,major,minor,rssi\n"
        text.reserveCapacity(count * 60)
        for index in 0..<count { text += "100.0,\(uuid),1,\(index % 12 + 1),-\(60 + index * 7 % 25)\n" }
        return try folder.file("equal-times.csv", text)
    }

    @Test("200,000 rows at one timestamp: locate, monitor and calibrate --from-traffic in n log n (100,000 took 3.4 s)")
    func equalTimestamps() throws {
        let folder = try ScratchFolder("equal-times")
        let input = try Self.equalTimestamps(200_000, in: folder)
        // An epoch's samples were put in order by an insertion sort: quadratic when every row
        // has the same time and the beacons interleave (1,000,000 rows took 379 s). Before the
        // fix these runs were killed at the limit: locate of 200,000 rows and calibrate of
        // 60,000 each needed more than 15 CPU seconds; now they need about 0.2 s and 1 s.
        let limit = "ulimit -t 15"
        let locate = try Self.run(["locate", "--plan", Self.plan, "--rssi", input], limits: limit)
        #expect(locate.status == 0, "\(locate.stderr)")
        #expect(locate.stderr.contains("locate: 200000 samples, 200000 used, 1 positions"))
        let monitor = try Self.run(
            [
                "monitor", "--plan", Self.plan, "--rssi", input, "--regions",
                LocateCommandTests.examples.appendingPathComponent("office-regions.json").path
            ], limits: limit)
        #expect(monitor.status == 0, "\(monitor.stderr)")
        #expect(monitor.stderr.contains("monitor: 200000 samples"))
        let smaller = try Self.equalTimestamps(60_000, in: folder)
        let calibrate = try Self.run(
            ["calibrate", "--from-traffic", "--plan", Self.plan, "--rssi", smaller], limits: limit)
        #expect(calibrate.status == 0, "\(calibrate.stderr)")
    }

    @Test("monitor with 2,000 beacon regions and 30,000 one-sample devices: each device touches its own regions")
    func manyBeaconRegions() throws {
        let folder = try ScratchFolder("beacon-regions")
        var regions: [String] = []
        for index in 0..<2000 {
            regions.append(
                #"{"id": "b\#(index)", "beacon": {"uuid": "\#(Self.uuid)", "major": \#(1 + index / 1000), "minor": \#(index % 1000)}}"#
            )
        }
        let file = try folder.file("regions.json", #"{"regions": [\#(regions.joined(separator: ",\n"))]}"#)
        var text = "timestamp,device,uuid,major,minor,rssi\n"
        for index in 0..<30_000 {
            text += "\(100 + Double(index) / 1000),d\(index),\(Self.uuid),1,\(index % 12 + 1),-65\n"
        }
        let input = try folder.file("devices.csv", text)
        let output = folder.path("events.csv")
        // Each device's copy of the monitor armed every beacon region at its first sample.
        let result = try Self.run(
            [
                "monitor", "--plan", Self.plan, "--regions", file, "--rssi", input, "--enter-count", "1",
                "--output", output
            ], limits: "ulimit -t 30")
        #expect(result.status == 0, "\(result.stderr)")
        // Each device enters the one region of its beacon.
        let events = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n").dropFirst()
        #expect(events.count == 30_000)
        #expect(events.first?.hasPrefix("100.000,b1,satisfied,d0,") == true)
    }
}
