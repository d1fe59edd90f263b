import Foundation
import TestSupport
import Testing

@testable import PositioningIO

@Suite("indoorpos: quiet means quiet, unusable input is an error, plan warnings")
struct NewcomerCommandTests {
    @Test("--quiet writes nothing on standard error on a good run; without it the summary is there")
    func quiet() throws {
        let quiet = try Tool.run([
            "locate", "--plan", LocateCommandTests.plan, "--rssi", LocateCommandTests.rssi, "--quiet"
        ])
        #expect(quiet.status == 0)
        #expect(quiet.stderr.isEmpty, "\(quiet.stderr)")
        let talkative = try Tool.run(["locate", "--plan", LocateCommandTests.plan, "--rssi", LocateCommandTests.rssi])
        #expect(talkative.stderr.contains("locate: 3858 samples, 3858 used"))
        #expect(quiet.stdout == talkative.stdout)
    }

    @Test("an input in which no sample is usable is exit 1 with the reason, and no output file")
    func nothingUsable() throws {
        let folder = try ScratchFolder("nothing-usable")
        let foreign = try folder.file(
            "foreign.csv",
            "timestamp,uuid,major,minor,rssi\n"
                + (0..<20).map { "\($0),11111111-2222-3333-4444-555555555555,9,9,-60" }.joined(separator: "\n") + "\n")
        let output = folder.path("fixes.csv")
        let result = try Tool.run([
            "locate", "--plan", LocateCommandTests.plan, "--rssi", foreign, "--output", output, "--quiet"
        ])
        #expect(result.status == 1)
        #expect(
            result.stderr.contains("no sample could be used (20 samples read; skipped 20 of beacons not in the plan)"))
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: output))
        let empty = try folder.file("empty.csv", "timestamp,uuid,major,minor,rssi\n")
        let none = try Tool.run(["locate", "--plan", LocateCommandTests.plan, "--rssi", empty])
        #expect(none.status == 1)
        #expect(none.stderr.contains("no sample could be used (0 samples read, none skipped)"))
    }

    @Test("a beacon far outside its floor is reported by describe and on locate's standard error")
    func planWarnings() throws {
        let folder = try ScratchFolder("plan-warnings")
        let plan = try FloorPlan.load(path: LocateCommandTests.plan)
        var floors = plan.floors
        floors[0].beacons[0].position.x = 3000  // 3 km east of a 21-m floor
        let moved = try FloorPlan(
            name: plan.name, defaults: plan.defaults, floors: floors, georeference: plan.georeference)
        let text = String(decoding: moved.jsonData(), as: UTF8.self)
        let path = try folder.file("far.json", text)
        let described = try Tool.run(["describe", "--plan", path])
        #expect(described.status == 0)
        #expect(described.stdout.contains("geometry: 1 warning(s):"))
        #expect(described.stdout.contains("m outside the floor's outline"))
        let located = try Tool.run([
            "locate", "--plan", path, "--rssi", LocateCommandTests.rssi, "--output", folder.path("f.csv")
        ])
        #expect(located.status == 0)
        #expect(located.stderr.contains("locate: warning: \(path): level 0: beacon"))
        let clean = try Tool.run(["describe", "--plan", LocateCommandTests.plan])
        #expect(clean.stdout.contains("geometry: no warnings"))
    }
}

@Suite("indoorpos evaluate on static survey points")
struct StaticTruthCommandTests {
    @Test("a static-point truth (two rows per point, 120 s apart) scores every fix without options")
    func staticPoints() throws {
        let folder = try ScratchFolder("static-truth")
        let truth = try folder.file("truth.csv", "timestamp,x,y,floor\n0,2,2,0\n120,2,2,0\n121,8,3,0\n241,8,3,0\n")
        let fixes = try folder.file(
            "fixes.csv",
            "timestamp,x,y,floor,accuracy\n"
                + (1...119).map { "\($0),2.5,2,0,1" }.joined(separator: "\n") + "\n"
                + (122...240).map { "\($0),8,3.5,0,1" }.joined(separator: "\n") + "\n")
        let result = try Tool.run(["evaluate", "--fixes", fixes, "--truth", truth, "--format", "json"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\"count\" : 238") || result.stdout.contains("\"count\":238"))
        #expect(!result.stderr.contains("skipped"))
        // Points at different places 120 s apart, no static column: the error names the gap rule.
        let walking = try folder.file("walking.csv", "timestamp,x,y\n0,2,2\n120,8,3\n")
        let gaps = try folder.file("gap-fixes.csv", "timestamp,x,y\n60,5,2\n")
        let failed = try Tool.run(["evaluate", "--fixes", gaps, "--truth", walking])
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("fall in gaps between truth rows longer than 5 s (--max-gap)"))
        #expect(failed.stderr.contains("'static' column"))
    }
}

@Suite("indoorpos calibrate --exponent and the per-beacon fallback")
struct CalibrateExponentTests {
    static let uuid = "F7826DA6-4FA2-4E98-8024-BC5B71E0893E"

    /// RSSI = −55 − 20 log₁₀ d ± 1 dB at `distances` for beacon `minor`.
    static func rows(minor: Int, distances: [Double]) -> String {
        var text = ""
        for (i, d) in distances.enumerated() {
            for k in 0..<5 {
                let rssi = -55 - 20 * log10(d) + Double((i + k) % 3 - 1)
                text += "\(d),\(rssi),\(uuid),1,\(minor)\n"
            }
        }
        return text
    }

    @Test(
        "three static points, all at one distance per beacon: an error that suggests --exponent; with --exponent 2 a calibration"
    )
    func staticPoints() throws {
        let folder = try ScratchFolder("calibrate-exponent")
        let samples = try folder.file(
            "points.csv",
            "distance,rssi,uuid,major,minor\n"
                + Self.rows(minor: 1, distances: [3]) + Self.rows(minor: 2, distances: [3])
                + Self.rows(minor: 3, distances: [3]))
        let output = folder.path("cal.json")
        let refused = try Tool.run(["calibrate", "--samples", samples, "--output", output])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("give --exponent N"))
        #expect(!FileManager.default.fileExists(atPath: output))
        let held = try Tool.run(["calibrate", "--samples", samples, "--exponent", "2", "--output", output])
        #expect(held.status == 0, "\(held.stderr)")
        let file = try CalibrationFile.load(path: output)
        #expect(file.beacons?.count == 3)
        for entry in file.beacons ?? [] {
            #expect(entry.fit.pathLossExponent == 2)
            #expect(abs(entry.fit.measuredPower + 55) < 0.5)  // the ±1 dB pattern averages to 0 within 0.2 dB
        }
        #expect(abs(file.all.measuredPower + 55) < 0.5)
    }

    @Test("a beacon whose own fit fails gets the overall fit, marked global and reported; the others keep theirs")
    func fallback() throws {
        let folder = try ScratchFolder("calibrate-fallback")
        let samples = try folder.file(
            "mixed.csv",
            "distance,rssi,uuid,major,minor\n"
                + Self.rows(minor: 1, distances: [1, 2, 4, 8]) + Self.rows(minor: 2, distances: [5]))
        let output = folder.path("cal.json")
        let result = try Tool.run(["calibrate", "--samples", samples, "--output", output])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("not fitted on its own"))
        let file = try CalibrationFile.load(path: output)
        let entries = try #require(file.beacons)
        #expect(entries.count == 2)
        let own = try #require(entries.first { $0.beacon.minor == 1 })
        let global = try #require(entries.first { $0.beacon.minor == 2 })
        #expect(own.fit.method == "leastSquares")
        #expect(global.fit.method == "global")
        #expect(global.fit.count == 5)
        #expect(
            global.fit.measuredPower == file.all.measuredPower
                && global.fit.pathLossExponent == file.all.pathLossExponent)
    }
}

@Suite("indoorpos locate --covariance")
struct CovarianceColumnTests {
    @Test(
        "var_x, var_y, cov_xy in CSV and JSON lines; the ellipse render draws from them rebuilds the covariance to 1e-6"
    )
    func covariance() throws {
        let folder = try ScratchFolder("covariance")
        let csv = folder.path("fixes.csv")
        let run = try Tool.run([
            "locate", "--plan", LocateCommandTests.plan, "--rssi", LocateCommandTests.rssi,
            "--covariance", "--quiet", "--output", csv
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let text = try String(contentsOfFile: csv, encoding: .utf8)
        let lines = text.split(separator: "\n")
        let header = lines[0].split(separator: ",").map(String.init)
        #expect(header.suffix(5) == ["beacons", "var_x", "var_y", "cov_xy", "zone_probability"])
        let column = { (name: String) in header.firstIndex(of: name) ?? 0 }
        let rows = lines.dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        #expect(rows.count > 100)
        for row in rows {
            let accuracy = try #require(Double(row[column("accuracy")]))
            let c = PositionCovariance(
                xx: try #require(Double(row[column("var_x")])), xy: try #require(Double(row[column("cov_xy")])),
                yy: try #require(Double(row[column("var_y")])))
            // accuracy² = var x + var y (accuracy is written to 1 mm).
            #expect(abs((c.xx + c.yy).squareRoot() - accuracy) <= 0.0006)
            // The ellipse `render` draws from these columns gives back the covariance.
            let e = ErrorEllipse(horizontalOf: c)
            let cosT = cos(e.orientation), sinT = sin(e.orientation)
            let a2 = e.semiMajor * e.semiMajor, b2 = e.semiMinor * e.semiMinor
            #expect(abs(a2 * cosT * cosT + b2 * sinT * sinT - c.xx) <= 1e-6)
            #expect(abs(a2 * sinT * sinT + b2 * cosT * cosT - c.yy) <= 1e-6)
            #expect(abs((a2 - b2) * sinT * cosT - c.xy) <= 1e-6)
        }
        let jsonl = try Tool.run([
            "locate", "--plan", LocateCommandTests.plan, "--rssi", LocateCommandTests.rssi,
            "--covariance", "--quiet", "--format", "jsonl"
        ])
        #expect(jsonl.stdout.split(separator: "\n").first?.contains("\"var_x\":") == true)
        // Without the flag the output is as before.
        let plain = try Tool.run([
            "locate", "--plan", LocateCommandTests.plan, "--rssi", LocateCommandTests.rssi, "--quiet"
        ])
        #expect(!plain.stdout.contains("var_x"))
    }
}
