import Foundation
import TestSupport
import Testing

@testable import PositioningIO

@Suite("indoorpos calibrate --from-traffic and locate --self-calibrate")
struct SelfCalibrationCommandTests {
    @Test(
        "calibrate --from-traffic learns every plan beacon from the bundled walk, prints the table, and locate reads it back the same as --self-calibrate"
    )
    func learnAndLocate() throws {
        let folder = try ScratchFolder("self-calibration")
        let site = folder.path("site.json")
        let learned = try Tool.run([
            "calibrate", "--from-traffic", "--plan", LocateCommandTests.plan,
            "--rssi", LocateCommandTests.rssi, "--output", site
        ])
        #expect(learned.status == 0, "\(learned.stderr)")
        #expect(learned.stderr.contains("self-calibration: 3858 samples"))
        #expect(learned.stderr.contains("P0 plan → learned ± se"))
        let file = try CalibrationFile.load(path: site)
        let fits = try #require(file.beacons)
        #expect(fits.count == 12)
        for entry in fits {
            #expect(entry.fit.method == "traffic" || entry.fit.method == "plan")
            #expect(entry.fit.measuredPowerStandardError.map { $0 > 0 && $0.isFinite } == true)
            #expect(entry.fit.pathLossExponentStandardError.map { $0 > 0 && $0.isFinite } == true)
            #expect(entry.fit.measuredPower.isFinite && entry.fit.pathLossExponent > 0)
        }
        #expect(fits.contains { $0.fit.method == "traffic" })
        // The places' own shadowing, learned with the models, for the radius.
        let placeSigma = try #require(file.placeShadowingSigma)
        #expect(placeSigma > 0 && placeSigma <= 30)
        #expect(
            learned.stderr.contains(String(format: "shadowing a place keeps: %.2f dB (placeShadowingSigma", placeSigma))
        )
        // The file carries the device-offset prior the summary prints (the sample's three
        // phones), so locating with it alone gives what --self-calibrate gives in one command,
        // and so does the prior given as an option.
        let prior = try #require(Self.offsetPrior(learned.stderr), "\(learned.stderr)")
        #expect(file.deviceOffsetSigma.map { String(format: "%.2f", $0) } == prior)
        let viaFile = try Tool.run([
            "locate", "--plan", LocateCommandTests.plan, "--rssi", LocateCommandTests.rssi,
            "--calibration", site, "--quiet"
        ])
        let viaOption = try Tool.run([
            "locate", "--plan", LocateCommandTests.plan, "--rssi", LocateCommandTests.rssi,
            "--calibration", site, "--device-offset-sigma", prior, "--quiet"
        ])
        let inOne = try Tool.run([
            "locate", "--plan", LocateCommandTests.plan, "--rssi", LocateCommandTests.rssi,
            "--self-calibrate"
        ])
        #expect(viaFile.status == 0 && viaOption.status == 0 && inOne.status == 0)
        #expect(viaFile.stdout == inOne.stdout && viaOption.stdout == inOne.stdout)
        // Without the key the file is positioned with the survey default (3 dB): other positions.
        var withoutPrior = file
        withoutPrior.deviceOffsetSigma = nil
        let bare = try folder.file("site-without-prior.json", String(decoding: withoutPrior.jsonData(), as: UTF8.self))
        let surveyPrior = try Tool.run([
            "locate", "--plan", LocateCommandTests.plan, "--rssi", LocateCommandTests.rssi,
            "--calibration", bare, "--quiet"
        ])
        #expect(surveyPrior.status == 0 && surveyPrior.stdout != inOne.stdout)
        // An option still overrides the file's prior.
        let overridden = try Tool.run([
            "locate", "--plan", LocateCommandTests.plan, "--rssi", LocateCommandTests.rssi,
            "--calibration", site, "--device-offset-sigma", "3", "--quiet"
        ])
        #expect(overridden.status == 0 && overridden.stdout == surveyPrior.stdout)
        #expect(inOne.stderr.contains("self-calibration:"))
        // Untracked, it learns the same models (learning always tracks) and positions untracked.
        let untracked = try Tool.run([
            "locate", "--plan", LocateCommandTests.plan, "--rssi", LocateCommandTests.rssi,
            "--self-calibrate", "--tracker", "none", "--quiet"
        ])
        let untrackedViaFile = try Tool.run([
            "locate", "--plan", LocateCommandTests.plan, "--rssi", LocateCommandTests.rssi,
            "--calibration", site, "--tracker", "none", "--quiet"
        ])
        #expect(untracked.status == 0, "\(untracked.stderr)")
        #expect(untracked.stdout == untrackedViaFile.stdout && untracked.stdout.contains(",fix,"))
        // describe shows the same table for the learned file.
        let described = try Tool.run(["describe", "--plan", LocateCommandTests.plan, "--calibration", site])
        #expect(described.stdout.contains("calibration against the plan, per beacon:"))
        #expect(described.stdout.contains("traffic"))
    }

    /// The device-offset prior (dB, as text) that a `calibrate --from-traffic` summary prints.
    static func offsetPrior(_ summary: String) -> String? {
        guard let range = summary.range(of: #"with a [0-9.]+-dB offset prior"#, options: .regularExpression) else {
            return nil
        }
        return summary[range].split(separator: " ")[2].replacingOccurrences(of: "-dB", with: "")
    }

    @Test(
        "--self-calibrate learns the same models whatever the output's lag: with --lag 3 it gives the bytes of the learned file located with --lag 3"
    )
    func lagDoesNotChangeTheLearning() throws {
        let folder = try ScratchFolder("self-calibration-lag")
        let site = folder.path("site.json")
        let learned = try Tool.run([
            "calibrate", "--from-traffic", "--plan", LocateCommandTests.plan, "--rssi", LocateCommandTests.rssi,
            "--output", site
        ])
        #expect(learned.status == 0, "\(learned.stderr)")
        let base = ["locate", "--plan", LocateCommandTests.plan, "--rssi", LocateCommandTests.rssi, "--quiet"]
        let inOne = try Tool.run(base + ["--self-calibrate", "--lag", "3"])
        let viaFile = try Tool.run(base + ["--calibration", site, "--lag", "3"])
        #expect(inOne.status == 0 && viaFile.status == 0, "\(inOne.stderr)\(viaFile.stderr)")
        #expect(!inOne.stdout.isEmpty && inOne.stdout == viaFile.stdout)
        // The lag itself still refines the positions.
        let causal = try Tool.run(base + ["--calibration", site])
        #expect(causal.status == 0 && causal.stdout != viaFile.stdout)
    }

    @Test("a file in which every beacon kept the plan's values locates exactly as the plan alone")
    func keptAtPlan() throws {
        let folder = try ScratchFolder("self-calibration-plan")
        let plan = try FloorPlan.load(path: LocateCommandTests.plan)
        let learned = plan.beacons.compactMap { plan.resolvedBeacon($0.identity) }.map { beacon in
            LearnedPathLoss(
                beacon: beacon.identity, model: PathLossModel(beacon), measuredPowerStandardError: 8,
                exponentStandardError: 0.5, correlation: 0, count: 3, effectiveCount: 3,
                prior: PathLossPrior(centredOn: PathLossModel(beacon)), source: .plan)
        }
        let path = folder.path("plan-only.json")
        try CalibrationFile(learned: learned, pooled: nil).jsonData().write(to: URL(fileURLWithPath: path))
        #expect(try CalibrationFile.load(path: path).models(for: plan).isEmpty)
        let withFile = try Tool.run([
            "locate", "--plan", LocateCommandTests.plan, "--rssi", LocateCommandTests.rssi,
            "--calibration", path, "--quiet"
        ])
        let plain = try Tool.run([
            "locate", "--plan", LocateCommandTests.plan, "--rssi", LocateCommandTests.rssi, "--quiet"
        ])
        #expect(withFile.status == 0)
        #expect(withFile.stdout == plain.stdout)
    }

    @Test("bad input: options that do not go together, no usable traffic, a calibration of another site")
    func badInput() throws {
        let folder = try ScratchFolder("self-calibration-bad")
        let noDistances = try Tool.run(["calibrate", "--from-traffic", "--plan", LocateCommandTests.plan])
        #expect(noDistances.status != 0)
        #expect(noDistances.stderr.contains("--from-traffic needs --plan and --rssi"))
        let mixed = try Tool.run(["calibrate", "--samples", LocateCommandTests.rssi, "--plan", LocateCommandTests.plan])
        #expect(mixed.status != 0)
        #expect(mixed.stderr.contains("--plan goes with --from-traffic"))
        let both = try Tool.run([
            "locate", "--plan", LocateCommandTests.plan, "--rssi", LocateCommandTests.rssi,
            "--self-calibrate", "--learn-online"
        ])
        #expect(both.status != 0)
        // Traffic of beacons the plan does not know: one line, no output file.
        let stranger = try folder.file(
            "stranger.csv",
            "timestamp,uuid,major,minor,rssi\n"
                + (0..<100).map { "\($0),11111111-2222-3333-4444-555555555555,9,9,-60" }.joined(separator: "\n") + "\n")
        let output = folder.path("never.json")
        let none = try Tool.run([
            "calibrate", "--from-traffic", "--plan", LocateCommandTests.plan, "--rssi", stranger,
            "--output", output
        ])
        #expect(none.status == 1)
        #expect(none.stderr.contains("nothing to learn path-loss models from"))
        #expect(none.stderr.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: output))
        // A calibration of another site: none of its beacons is in the plan; learning starts from the plan.
        let other = try folder.file(
            "other.json",
            """
            {"beacons": [{"uuid": "11111111-2222-3333-4444-555555555555", "major": 9, "minor": 9, "measuredPower": -40,
              "pathLossExponent": 3, "sigma": 5, "count": 100}],
             "all": {"measuredPower": -40, "pathLossExponent": 3, "sigma": 5, "count": 100}}
            """)
        let foreign = try Tool.run([
            "calibrate", "--from-traffic", "--plan", LocateCommandTests.plan,
            "--rssi", LocateCommandTests.rssi, "--calibration", other, "--output", folder.path("a.json")
        ])
        let plain = try Tool.run([
            "calibrate", "--from-traffic", "--plan", LocateCommandTests.plan,
            "--rssi", LocateCommandTests.rssi, "--output", folder.path("b.json")
        ])
        #expect(foreign.status == 0 && plain.status == 0)
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: folder.path("a.json")))
                == Data(contentsOf: URL(fileURLWithPath: folder.path("b.json"))))
    }

    @Test("many devices: their offsets summarised on one line (count, median, extremes), every one with --verbose")
    func offsetSummary() throws {
        // The bundled walk's rows shared out over 20 phones, one 2-s slice of its rows each in turn.
        let folder = try ScratchFolder("offset-summary")
        let text = try String(contentsOfFile: LocateCommandTests.rssi, encoding: .utf8)
        var lines = text.split(whereSeparator: \.isNewline).map(String.init)
        let header = lines.removeFirst().split(separator: ",").map(String.init)
        let device = try #require(header.firstIndex(of: "device"))
        let rows = lines.map { line -> String in
            var fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            let slice = Int((Double(fields[0]) ?? 0) / 2) % 20
            fields[device] = "phone-\(slice)"
            return fields.joined(separator: ",")
        }
        let rssi = try folder.file("many.csv", ([header.joined(separator: ",")] + rows).joined(separator: "\n") + "\n")
        let base = ["calibrate", "--from-traffic", "--plan", LocateCommandTests.plan, "--rssi", rssi]
        let brief = try Tool.run(base + ["--output", folder.path("a.json")])
        #expect(brief.status == 0, "\(brief.stderr)")
        let line = try #require(brief.stderr.split(separator: "\n").first { $0.contains("device offsets") })
        #expect(line.contains("20 devices, median") && line.contains("every device with --verbose"), "\(line)")
        #expect(!line.contains("phone-0 "))
        let verbose = try Tool.run(base + ["--output", folder.path("b.json"), "--verbose"])
        let full = try #require(verbose.stderr.split(separator: "\n").first { $0.contains("device offsets") })
        #expect((0..<20).allSatisfy { full.contains("phone-\($0) ") }, "\(full)")
    }

    @Test("--learn-online says whether the learned models were ever used")
    func learnOnlineNote() throws {
        let folder = try ScratchFolder("learn-online")
        let text = try String(contentsOfFile: LocateCommandTests.rssi, encoding: .utf8)
        let lines = text.split(whereSeparator: \.isNewline)
        let start = try #require(Double(lines[1].split(separator: ",")[0]))
        // The first 20 s of the walk: shorter than the 60-s update interval.
        let short = lines.prefix { line in Double(line.split(separator: ",")[0]).map { $0 < start + 20 } ?? true }
        let rssi = try folder.file("short.csv", short.joined(separator: "\n") + "\n")
        let brief = try Tool.run(["locate", "--plan", LocateCommandTests.plan, "--rssi", rssi, "--learn-online"])
        #expect(brief.status == 0, "\(brief.stderr)")
        #expect(brief.stderr.contains("learned while locating, but never used"), "\(brief.stderr)")
        let long = try Tool.run([
            "locate", "--plan", LocateCommandTests.plan, "--rssi", LocateCommandTests.rssi, "--learn-online"
        ])
        #expect(long.status == 0, "\(long.stderr)")
        #expect(long.stderr.contains("learned while locating (taken into use"), "\(long.stderr)")
    }
}
