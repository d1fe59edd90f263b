import Foundation
import Testing

/// `monitor --calibration` uses the calibrated models for the positions behind circle and zone
/// events, as `locate --calibration` does (its help said so while the option was missing).
@Suite("indoorpos monitor --calibration", .serialized)
struct MonitorCalibrationTests {
    static let base = [
        "monitor", "--plan", MonitorCommandTests.plan, "--regions", MonitorCommandTests.regions, "--rssi",
        MonitorCommandTests.rssi
    ]

    @Test(
        "the bundled calibration is read; a calibration far from the truth changes the zone events; a bad file is one line"
    )
    func calibrated() throws {
        let folder = try ScratchFolder("monitor-calibration")
        let calibration = MonitorCommandTests.plan.replacingOccurrences(of: "office-plan", with: "office-calibration")
        let plain = try Tool.run(Self.base)
        let calibrated = try Tool.run(Self.base + ["--calibration", calibration])
        #expect(plain.status == 0 && calibrated.status == 0, "\(calibrated.stderr)")
        #expect(!calibrated.stdout.isEmpty)
        // Every beacon at n = 6: ranges shrink fivefold, the positions move, and so do zone events.
        let text = try String(contentsOfFile: calibration, encoding: .utf8)
        let steep = try folder.file(
            "steep.json",
            text.replacingOccurrences(
                of: #""pathLossExponent" : [0-9.]+"#, with: #""pathLossExponent" : 6"#, options: .regularExpression))
        let moved = try Tool.run(Self.base + ["--calibration", steep])
        #expect(moved.status == 0, "\(moved.stderr)")
        #expect(moved.stdout != calibrated.stdout)
        let broken = try folder.file("broken.json", "[1, 2]")
        let refused = try Tool.run(Self.base + ["--calibration", broken])
        #expect(refused.status != 0)
        #expect(refused.stderr.split(separator: "\n").count == 1, "\(refused.stderr)")
    }
}
