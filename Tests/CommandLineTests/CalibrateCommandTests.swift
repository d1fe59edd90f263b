import Foundation
import TestSupport
import Testing

@testable import PositioningIO

@Suite("indoorpos calibrate", .serialized)
struct CalibrateCommandTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("calibrate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func write(_ name: String, _ text: String) throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    @Test("fits seeded samples; the JSON on --output loads and holds the truth")
    func success() throws {
        var rng = SeededGenerator(seed: 21)
        let model = PathLossModel(measuredPower: -60, exponent: 2, sigma: 4)
        var text = "distance,rssi\n"
        for k in 0..<2000 {
            let d = 0.5 * Foundation.pow(30, Double(k % 100) / 99)
            text += "\(d),\(model.expectedRSSI(atDistance: d) + rng.gaussian(sigma: 4))\n"
        }
        let samples = try write("samples.csv", text)
        let output = directory.appendingPathComponent("cal.json").path
        let run = try Tool.run(["calibrate", "--samples", samples, "--robust", "--output", output])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.contains("all") && run.stderr.contains("bisquare"))
        let file = try CalibrationFile.load(path: output)
        #expect(file.beacons == nil)
        #expect(abs(file.all.measuredPower - -60) < 0.5 && abs(file.all.pathLossExponent - 2) < 0.05)
        // Without --output the JSON goes to standard output.
        let toStdout = try Tool.run(["calibrate", "--samples", samples])
        #expect(toStdout.status == 0)
        #expect(try CalibrationFile(data: Data(toStdout.stdout.utf8)).all.count == 2000)
    }

    @Test(
        "bad input: one line on stderr, non-zero exit, no output file",
        arguments: [
            ("", "empty"),
            ("distance,rssi\n", "no calibration samples"),
            ("distance,rssi\n2,-60\n2,-62\n2,-61\n", "distinct distance"),
            ("distance,rssi\n1,-60\n0,-62\n2,-61\n", ":3: column 'distance'"),
            ("distance,rssi\n1,-60\n3,nan\n2,-61\n", ":3: column 'rssi'"),
            ("distance,rssi\n1,-60\n3,-62\nNaN,-61\n", ":4: column 'distance'")
        ])
    func badInput(text: String, expected: String) throws {
        let samples = try write("bad.csv", text)
        let output = directory.appendingPathComponent("never.json").path
        let run = try Tool.run(["calibrate", "--samples", samples, "--output", output])
        #expect(run.status != 0)
        #expect(run.stderr.hasPrefix("indoorpos: ") && run.stderr.contains(expected), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: output))
        #expect(run.stdout.isEmpty)
    }

    @Test(
        "real data: the danis-office receivers get their own fits",
        .enabled(
            if: FileManager.default.fileExists(
                atPath: Tool.sharedData.appendingPathComponent("danis-office/calibration.csv").path)))
    func danisOffice() throws {
        let path = Tool.sharedData.appendingPathComponent("danis-office/calibration.csv").path
        let run = try Tool.run(["calibrate", "--samples", path])
        #expect(run.status == 0, "\(run.stderr)")
        let file = try CalibrationFile(data: Data(run.stdout.utf8))
        #expect(file.beacons?.count == 12)
        // The dataset's README: per-receiver n from 0.9 to 2.3, global ≈ −61 dBm, n ≈ 1.5.
        for entry in file.beacons ?? [] { #expect((0.85...2.35).contains(entry.fit.pathLossExponent)) }
        #expect(abs(file.all.measuredPower - -61) < 1 && abs(file.all.pathLossExponent - 1.5) < 0.1)
    }
}
