import Foundation
import Testing

@testable import PositioningIO

/// Learning from traffic that does not fit the plan (another building's RSSI against this plan)
/// never writes a calibration `locate` refuses, never leaves the physical limits, and never
/// yields fewer positions than the plan's values on the same input.
@Suite(
    "Self-calibration on traffic from another building",
    .enabled(
        if: FileManager.default.fileExists(
            atPath: Tool.sharedData.appendingPathComponent("danis-office/tracks_rssi.csv").path)))
struct SafeSelfCalibrationTests {
    static let plan = Tool.sharedData.appendingPathComponent("kolakowski-flat/plan.json").path
    static let rssi = Tool.sharedData.appendingPathComponent("danis-office/tracks_rssi.csv").path

    /// The number of positions in `locate`'s summary ("…, 698 positions; …").
    static func positions(_ stderr: String) -> Int? {
        guard let range = stderr.range(of: #"(\d+) positions"#, options: .regularExpression) else { return nil }
        return Int(stderr[range].split(separator: " ")[0])
    }

    @Test(
        "the office walks against the flat's plan: a calibration that loads, exponents in 1…6, as many positions as the plan's values"
    )
    func otherBuilding() throws {
        let folder = try ScratchFolder("cross-building")
        let site = folder.path("site.json")
        let learned = try Tool.run([
            "calibrate", "--from-traffic", "--plan", Self.plan, "--rssi", Self.rssi, "--skip-bad-rows",
            "--output", site
        ])
        #expect(learned.status == 0, "\(learned.stderr)")
        let file = try CalibrationFile.load(path: site)
        for entry in file.beacons ?? [] {
            #expect((1.0...6.0).contains(entry.fit.pathLossExponent), "\(entry.fit)")
            #expect(abs(entry.fit.measuredPower - -59) <= 24 + 1e-6, "\(entry.fit)")
        }
        let plain = try Tool.run(["locate", "--plan", Self.plan, "--rssi", Self.rssi, "--skip-bad-rows"])
        let calibrated = try Tool.run([
            "locate", "--plan", Self.plan, "--rssi", Self.rssi, "--skip-bad-rows", "--calibration", site
        ])
        let selfCalibrated = try Tool.run([
            "locate", "--plan", Self.plan, "--rssi", Self.rssi, "--skip-bad-rows", "--self-calibrate"
        ])
        #expect(plain.status == 0 && calibrated.status == 0 && selfCalibrated.status == 0, "\(calibrated.stderr)")
        let count = try #require(Self.positions(plain.stderr))
        #expect(count > 600)
        #expect(Self.positions(calibrated.stderr) == count)
        #expect(Self.positions(selfCalibrated.stderr) == count)
    }
}
