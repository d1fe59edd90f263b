import Foundation
import Testing

@testable import PositioningIO

/// A shadowing σ near 0 (what noise-free survey readings fit to) once gave 0 positions: every
/// reading looked like an outlier. `calibrate` writes no σ below 0.5 dB, and `locate` raises a
/// smaller one to it with a note.
@Suite("Shadowing sigma floor", .serialized)
struct SigmaFloorCommandTests {
    /// The number of positions in `locate`'s summary.
    static func positions(_ stderr: String) -> Int? {
        SafeSelfCalibrationTests.positions(stderr)
    }

    @Test("calibrate on noise-free readings writes sigma 0.5, not 0")
    func calibrateWritesTheFloor() throws {
        let folder = try ScratchFolder("sigma-floor")
        // RSSI exactly −60 − 20 log10 d: the fit's residuals are 0.
        let rows = [1.0, 2, 4, 8].map { "\($0),\(-60 - 20 * log10($0))" }
        let samples = try folder.file("samples.csv", "distance,rssi\n" + rows.joined(separator: "\n") + "\n")
        let run = try Tool.run(["calibrate", "--samples", samples])
        #expect(run.status == 0, "\(run.stderr)")
        let file = try CalibrationFile(data: Data(run.stdout.utf8))
        #expect(file.all.sigma == 0.5)
    }

    @Test("locate with a calibration of sigma 0, or --sample-sigma 0.005, positions every epoch and says so")
    func locateRaisesIt() throws {
        let folder = try ScratchFolder("sigma-floor")
        let calibration = try String(
            contentsOfFile: LocateCommandTests.plan.replacingOccurrences(of: "office-plan", with: "office-calibration"),
            encoding: .utf8)
        let zero = try folder.file(
            "zero.json",
            calibration.replacingOccurrences(
                of: #""sigma" : [0-9.]+"#, with: #""sigma" : 0"#, options: .regularExpression))
        let base = ["locate", "--plan", LocateCommandTests.plan, "--rssi", LocateCommandTests.rssi]
        let plain = try Tool.run(base)
        let count = try #require(Self.positions(plain.stderr))
        #expect(count > 100)
        for extra in [["--calibration", zero], ["--sample-sigma", "0.005"]] {
            let run = try Tool.run(base + extra)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(Self.positions(run.stderr) == count, "\(extra): \(run.stderr)")
            #expect(run.stderr.contains("is raised to 0.5 dB"), "\(run.stderr)")
        }
    }
}
