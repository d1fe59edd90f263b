import Foundation
import PositioningIO
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

    @Test(
        "monitor --self-calibrate gives the events of monitor --calibration with the file calibrate --from-traffic writes; --learn-online changes them; the two together are refused"
    )
    func selfCalibrated() throws {
        let folder = try ScratchFolder("monitor-self-calibration")
        let site = folder.path("site.json")
        let learned = try Tool.run([
            "calibrate", "--from-traffic", "--plan", MonitorCommandTests.plan, "--rssi", MonitorCommandTests.rssi,
            "--output", site
        ])
        #expect(learned.status == 0, "\(learned.stderr)")
        // The file carries the device-offset prior the summary prints.
        let prior = try #require(SelfCalibrationCommandTests.offsetPrior(learned.stderr), "\(learned.stderr)")
        #expect(try CalibrationFile.load(path: site).deviceOffsetSigma.map { String(format: "%.2f", $0) } == prior)
        let viaFile = try Tool.run(Self.base + ["--calibration", site])
        let inOne = try Tool.run(Self.base + ["--self-calibrate"])
        let plain = try Tool.run(Self.base)
        #expect(viaFile.status == 0 && inOne.status == 0, "\(inOne.stderr)")
        #expect(!inOne.stdout.isEmpty && inOne.stdout == viaFile.stdout)
        #expect(inOne.stdout != plain.stdout)
        #expect(inOne.stderr.contains("self-calibration:"))
        let online = try Tool.run(Self.base + ["--learn-online"])
        #expect(online.status == 0, "\(online.stderr)")
        let both = try Tool.run(Self.base + ["--learn-online", "--self-calibrate"])
        #expect(both.status == 64)
        #expect(both.stderr.contains("choose one"))
    }

    @Test(
        "monitor --detection-first-pass learns the curve as locate does: locate's positions, the scan's moved")
    func detectionPosteriorAsLocate() throws {
        let folder = try ScratchFolder("monitor-detection")
        // The sample with a one-beacon scan of its own device: a reported fallback.
        let lines = try String(contentsOfFile: MonitorCommandTests.rssi, encoding: .utf8).split(
            whereSeparator: \.isNewline)
        let scan = "1581252400.5000,scan-a,B1E5E0A1-7D2C-4C55-9A51-5D3E2C1A0B0C,1,1,-85"
        let input = try folder.file(
            "scans.csv", ([String(lines[0]), scan] + lines.dropFirst().map(String.init)).joined(separator: "\n") + "\n")
        func rows(_ text: String) -> [Substring] { text.split(separator: "\n").dropFirst().sorted() }
        let option = ["--detection-first-pass"]
        let positions = folder.path("positions.csv")
        let monitored = try Tool.run(
            ["monitor", "--plan", MonitorCommandTests.plan, "--regions", MonitorCommandTests.regions, "--rssi", input]
                + option + ["--positions", positions])
        #expect(monitored.status == 0, "\(monitored.stderr)")
        #expect(monitored.stderr.contains("monitor: detection curve from"), "\(monitored.stderr)")
        let located = try Tool.run(["locate", "--plan", MonitorCommandTests.plan, "--rssi", input, "--quiet"] + option)
        let centroid = try Tool.run(
            [
                "locate", "--plan", MonitorCommandTests.plan, "--rssi", input, "--quiet", "--fallback",
                "weighted-centroid"
            ])
        let written = try String(contentsOfFile: positions, encoding: .utf8)
        #expect(rows(written) == rows(located.stdout))
        let scanRows = { (text: String) in rows(text).filter { $0.contains("scan-a") } }
        #expect(scanRows(written).count == 1)
        #expect(scanRows(written) != scanRows(centroid.stdout))
    }

    @Test("monitor learns the detection curve as its input goes, says so, and its scans' positions move")
    func detectionLearnedAsItGoes() throws {
        let folder = try ScratchFolder("monitor-detection-online")
        // 600 single scans of one to six of the sample's twelve beacons.
        var lines = ["timestamp,device,uuid,major,minor,rssi"]
        for scan in 0..<600 {
            for k in 0..<(1 + scan % 6) {
                let minor = 1 + (scan * 5 + k * 7) % 12
                lines.append(
                    "0.500,scan\(scan),B1E5E0A1-7D2C-4C55-9A51-5D3E2C1A0B0C,1,\(minor),\(-60 - (scan * 13 + k * 5) % 35)"
                )
            }
        }
        let input = try folder.file("scans.csv", lines.joined(separator: "\n") + "\n")
        var written: [String] = []
        for extra in [[], ["--fallback", "weighted-centroid"]] {
            let positions = folder.path("positions\(extra.count).csv")
            let monitored = try Tool.run(
                [
                    "monitor", "--plan", MonitorCommandTests.plan, "--regions", MonitorCommandTests.regions, "--rssi",
                    input
                ]
                    + extra + ["--positions", positions])
            #expect(monitored.status == 0, "\(monitored.stderr)")
            #expect(
                monitored.stderr.contains("monitor: detection curve learned as the input went") == extra.isEmpty,
                "\(monitored.stderr)")
            written.append(try String(contentsOfFile: positions, encoding: .utf8))
        }
        #expect(written[0].split(separator: "\n").count == 601)
        #expect(written[0] != written[1])
    }

    @Test("monitor --positions writes the positions behind its events: locate's, with and without a calibration")
    func positionsAsLocate() throws {
        let folder = try ScratchFolder("monitor-positions")
        let calibration = MonitorCommandTests.plan.replacingOccurrences(of: "office-plan", with: "office-calibration")
        for extra in [[], ["--calibration", calibration]] {
            let positions = folder.path("positions\(extra.count).csv")
            let monitored = try Tool.run(Self.base + extra + ["--positions", positions])
            #expect(monitored.status == 0, "\(monitored.stderr)")
            let located = try Tool.run(
                ["locate", "--plan", MonitorCommandTests.plan, "--rssi", MonitorCommandTests.rssi, "--quiet"] + extra)
            let written = try String(contentsOfFile: positions, encoding: .utf8)
            func rows(_ text: String) -> [Substring] { text.split(separator: "\n").dropFirst().sorted() }
            #expect(written.split(separator: "\n").first == located.stdout.split(separator: "\n").first)
            #expect(rows(written).count > 100)
            #expect(rows(written) == rows(located.stdout))
        }
        let same = try Tool.run(Self.base + ["--output", folder.path("x.csv"), "--positions", folder.path("x.csv")])
        #expect(same.status != 0 && same.stderr.contains("--output and --positions name the same file"))
    }
}
