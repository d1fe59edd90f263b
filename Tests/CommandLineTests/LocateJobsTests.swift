import Foundation
import Testing

/// `indoorpos locate --jobs N`: the same bytes for every number of worker threads.
@Suite("indoorpos locate --jobs", .serialized)
struct LocateJobsTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("locate-jobs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// The bundled sample's three walks played by 24 phones at once (each copy shifted by 7 s),
    /// rows in time order across phones: an interleaved file of several slices.
    func crowd() throws -> String {
        let lines = try String(contentsOfFile: LocateCommandTests.rssi, encoding: .utf8).split(
            whereSeparator: \.isNewline)
        var rows: [(time: Double, text: String)] = []
        for copy in 0..<8 {
            for line in lines.dropFirst() {
                var fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                let time = Double(fields[0])! + 7 * Double(copy)
                fields[0] = String(format: "%.4f", time)
                fields[1] = "copy\(copy)-" + fields[1]
                rows.append((time, fields.joined(separator: ",")))
            }
        }
        let sorted = rows.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }
        let path = directory.appendingPathComponent("crowd.csv").path
        let text = ([String(lines[0])] + sorted.map(\.element.text)).joined(separator: "\n") + "\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("1, 2 and 3 jobs write the same bytes, on the sample and on 24 phones at once, with and without learning")
    func sameBytes() throws {
        let crowd = try crowd()
        for rssi in [LocateCommandTests.rssi, crowd] {
            for extra in [[], ["--learn-online"], ["--idle-release", "5"], ["--smooth"]] {
                let base = ["locate", "--plan", LocateCommandTests.plan, "--rssi", rssi, "--quiet"] + extra
                let one = try Tool.run(base + ["--jobs", "1"])
                #expect(one.status == 0, "\(extra): \(one.stderr)")
                #expect(one.stdout.split(separator: "\n").count > 150)
                for jobs in ["2", "3"] {
                    let many = try Tool.run(base + ["--jobs", jobs])
                    #expect(many.status == 0)
                    #expect(many.stdout == one.stdout, "\(rssi) \(extra) --jobs \(jobs)")
                }
            }
        }
    }

    /// A samples file of 600 scans, one device each and all stamped alike, scan n hearing
    /// 1 + n mod `most` of the sample plan's twelve beacons once; its path.
    func scans(upTo most: Int, file: String) throws -> String {
        var lines = ["timestamp,device,uuid,major,minor,rssi"]
        for scan in 0..<600 {
            for k in 0..<(1 + scan % most) {
                let minor = 1 + (scan * 5 + k * 7) % 12
                lines.append(
                    "0.500,scan\(scan),B1E5E0A1-7D2C-4C55-9A51-5D3E2C1A0B0C,1,\(minor),\(-60 - (scan * 13 + k * 5) % 35)"
                )
            }
        }
        let path = directory.appendingPathComponent(file).path
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("--fallback outline-posterior: 1, 2 and 3 jobs write the same bytes for 600 scans of one to three beacons")
    func sameBytesWithThePosterior() throws {
        // Scans as on uji-geo: one device per scan, all stamped alike, so that many shards each
        // fill their solvers' caches in their own order.
        let path = try scans(upTo: 3, file: "scans.csv")
        let base = [
            "locate", "--plan", LocateCommandTests.plan, "--rssi", path, "--quiet", "--fallback", "outline-posterior"
        ]
        let one = try Tool.run(base + ["--jobs", "1"])
        #expect(one.status == 0, "\(one.stderr)")
        #expect(one.stdout.split(separator: "\n").count == 601)
        for jobs in ["2", "3"] {
            let many = try Tool.run(base + ["--jobs", jobs])
            #expect(many.stdout == one.stdout, "--jobs \(jobs)")
        }
    }

    @Test(
        "The detection posterior, learned as the input goes (the default) or by a first pass: the same bytes for any --jobs"
    )
    func sameBytesWithTheDetectionPosterior() throws {
        // Scans of one to six of the twelve beacons: the scans of four or more teach the
        // detection curve, the others are its fallbacks. Every epoch closes at the end of the
        // input (one scan per device), in the steps between which the curve is fitted.
        let path = try scans(upTo: 6, file: "detection-scans.csv")
        let centroid = try Tool.run([
            "locate", "--plan", LocateCommandTests.plan, "--rssi", path, "--quiet", "--fallback", "weighted-centroid"
        ])
        var outputs: [String] = []
        for (extra, summary) in [
            ([], "detection curve learned as the input went (2 fit(s), the last from 223 of 223 determined fixes)"),
            (["--detection-first-pass"], "detection curve from 300 of 300 determined fixes")
        ] {
            let base = ["locate", "--plan", LocateCommandTests.plan, "--rssi", path] + extra
            let one = try Tool.run(base + ["--jobs", "1"])
            #expect(one.status == 0, "\(one.stderr)")
            #expect(one.stdout.split(separator: "\n").count == 601)
            #expect(one.stderr.contains(summary), "\(one.stderr)")
            #expect(one.stderr.contains("the fallbacks' readings taken with"), "\(one.stderr)")
            #expect(centroid.stdout != one.stdout)
            for jobs in ["2", "3"] {
                let many = try Tool.run(base + ["--jobs", jobs])
                #expect(many.stdout == one.stdout, "\(extra) --jobs \(jobs)")
                #expect(many.stderr == one.stderr, "\(extra) --jobs \(jobs)")
            }
            outputs.append(one.stdout)
        }
        // The curve learned from the first scans only moves the fallbacks of the scans before the last fit.
        #expect(outputs[0] != outputs[1])
    }

    @Test("--jobs must be a whole number from 1 to 256")
    func badJobs() throws {
        for bad in ["0", "1.5", "x", "257"] {
            let result = try Tool.run([
                "locate", "--plan", LocateCommandTests.plan, "--rssi", LocateCommandTests.rssi, "--jobs", bad
            ])
            #expect(result.status != 0)
            #expect(result.stderr.contains("whole number of threads"), "\(bad): \(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
    }
}
