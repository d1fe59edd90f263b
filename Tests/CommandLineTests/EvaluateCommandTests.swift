import Foundation
import Testing

@Suite("indoorpos evaluate", .serialized)
struct EvaluateCommandTests {
    let scratch: ScratchFolder

    init() throws { scratch = try ScratchFolder("evaluate") }

    func file(_ name: String, _ text: String) throws -> String { try scratch.file(name, text) }

    func path(_ name: String) -> String { scratch.path(name) }

    @Test("the bundled sample: text, JSON and Markdown, and a CDF chart")
    func sample() throws {
        let examples = LocateCommandTests.examples
        let fixes = path("fixes.csv")
        _ = try Tool.run([
            "locate", "--plan", LocateCommandTests.plan, "--rssi", LocateCommandTests.rssi,
            "--calibration", LocateCommandTests.calibration, "--quiet", "--output", fixes
        ])
        let truth = examples.appendingPathComponent("office-truth.csv").path
        let text = try Tool.run(["evaluate", "--fixes", fixes, "--truth", truth, "--cdf", path("cdf.svg")])
        #expect(text.status == 0)
        #expect(text.stdout.contains("overall"))
        #expect(text.stdout.contains("straight_04"))
        let svg = try String(contentsOfFile: path("cdf.svg"), encoding: .utf8)
        #expect(svg.hasPrefix("<?xml") && svg.contains("<polyline") && svg.hasSuffix("</svg>\n"))
        let json = try Tool.run(["evaluate", "--fixes", fixes, "--truth", truth, "--format", "json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let overall = object?["overall"] as? [String: Any]
        #expect((overall?["count"] as? Int ?? 0) > 100)
        let markdown = try Tool.run([
            "evaluate", "--fixes", fixes, "--fixes", fixes, "--label", "one", "--label", "two",
            "--truth", truth, "--format", "markdown"
        ])
        #expect(markdown.stdout.split(separator: "\n").count == 4)
        #expect(markdown.stdout.contains("| two |"))
    }

    @Test("bad input: one line on standard error, non-zero status, no output file")
    func badInput() throws {
        let truth = try file("truth.csv", "timestamp,x,y\n0,0,0\n1,1,1\n2,2,2\n")
        let fixes = try file("fixes.csv", "timestamp,x,y,accuracy\n0.5,0,0,1\n1.5,1,1,1\n")
        let cases: [(arguments: [String], message: String)] = [
            (["--fixes", try file("empty.csv", ""), "--truth", truth], "the file is empty"),
            (["--fixes", try file("header.csv", "timestamp,x,y\n"), "--truth", truth], "no data rows"),
            (["--fixes", fixes, "--truth", try file("one.csv", "timestamp,x,y\n7,0,0\n")], "no fix falls inside"),
            (["--fixes", try file("late.csv", "timestamp,x,y\n100,0,0\n"), "--truth", truth], "no fix falls inside"),
            (
                [
                    "--fixes", try file("devices.csv", "timestamp,device,x,y\n1,a,0,0\n"),
                    "--truth", try file("other.csv", "timestamp,device,x,y\n1,b,0,0\n")
                ], "no fix falls inside"
            ),
            (["--fixes", try file("nan.csv", "timestamp,x,y\n1,nan,0\n"), "--truth", truth], "column 'x'"),
            (["--fixes", try file("negative.csv", "timestamp,x,y,accuracy\n1,0,0,-1\n"), "--truth", truth], "negative"),
            (["--fixes", fixes, "--truth", path("missing.csv")], "no such file"),
            (["--fixes", try file("far.csv", "timestamp,x,y\n1,1e300,0\n"), "--truth", truth], "within ±1e7 metres")
        ]
        for (arguments, message) in cases {
            let result = try Tool.run(
                ["evaluate"] + arguments + ["--output", path("out.txt"), "--cdf", path("out.svg")])
            #expect(result.status != 0, "\(arguments)")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: path("out.txt")))
            #expect(!FileManager.default.fileExists(atPath: path("out.svg")))
        }
        let labels = try Tool.run(["evaluate", "--fixes", fixes, "--truth", truth, "--label", "a", "--label", "b"])
        #expect(labels.status != 0 && labels.stderr.contains("one --label per --fixes"))
    }

    /// The two-zone case of `ZoneScoreTests` (Tests/EvaluationTests), as files: the fixes with
    /// CRLF line ends, the events without a final newline.
    func zoneFiles() throws -> (plan: String, fixes: String, truth: String, events: String) {
        let plan = try file(
            "zones-plan.json",
            """
            {"floors": [{"level": 0, "zones": [
              {"id": "west", "polygon": [[0, 0], [10, 0], [10, 10], [0, 10]]},
              {"id": "east", "polygon": [[12, 0], [22, 0], [22, 10], [12, 10]]}]}]}
            """)
        let truth = try file(
            "zones-truth.csv", "timestamp,x,y,device\n0,5,5,d\n19,5,5,d\n20,17,5,d\n59,17,5,d\n60,5,5,d\n80,5,5,d\n")
        var lines = ["timestamp,x,y,device,zone", "-2,5,5,d,west"]
        for t in 0...80 {
            let zone = t < 23 ? "west" : t == 40 ? "" : t < 60 ? "east" : "west"
            let x = t < 20 ? 5 : t == 20 ? 11 : t == 30 ? 5 : t < 60 ? 17 : 5
            lines.append("\(t),\(x),5,d,\(zone)")
        }
        lines += ["3,5,5,ghost,west", "4,5,5,ghost,west"]
        let fixes = try file("zones-fixes.csv", lines.joined(separator: "\r\n") + "\r\n")
        let events = try file(
            "zones-events.csv",
            "timestamp,region,state,device\n0,site,satisfied,d\n10,west,satisfied,d\n25,east,satisfied,d\n"
                + "27,west,unsatisfied,d\n50,west,satisfied,d\n56,east,unsatisfied,d\n0,west,satisfied,e\n"
                + "1,east,satisfied,e")
        return (plan, fixes, truth, events)
    }

    @Test("--plan and --events: zone figures in every format, as zones.py prints them")
    func zones() throws {
        let f = try zoneFiles()
        let common = ["evaluate", "--fixes", f.fixes, "--truth", f.truth, "--label", "run"]
        let markdown = try Tool.run(common + ["--plan", f.plan, "--events", f.events, "--format", "markdown"])
        #expect(markdown.status == 0, "\(markdown.stderr)")
        // What `python3 Scripts/reference/zones.py plan fixes truth --events events` prints.
        #expect(
            markdown.stdout.hasSuffix(
                """

                | run | rule | held | entries caught (±10 s) | median latency | false entries | changes (true) | two at once |
                | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |
                | run | library | 95 % | 100 % of 2 | +1.5 s | 33 % of 3 | 4 (2) | 6 s |
                | run | point-in-polygon | 98 % | 100 % of 2 | +0.5 s | 50 % of 4 | 5 (2) | — |
                | run | debounced | 94 % | 100 % of 2 | +2.5 s | 0 % of 2 | 2 (2) | — |

                """))
        #expect(markdown.stderr.contains("zone figures skipped 3 fixes"))
        let plain = try Tool.run(common + ["--format", "markdown"])
        #expect(markdown.stdout.hasPrefix(plain.stdout + "\n| run | rule |"))
        let text = try Tool.run(common + ["--plan", f.plan, "--events", f.events])
        #expect(text.status == 0 && text.stdout.contains("zones: 81 fixes scored, 3 skipped"))
        #expect(text.stdout.contains("+1.5 s") && text.stdout.contains("6.0 s") && !text.stdout.contains("nan"))
        let json = try Tool.run(common + ["--plan", f.plan, "--format", "json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let zones = object?["zones"] as? [String: Any]
        let library = zones?["library"] as? [String: Any]
        #expect(abs((library?["held"] as? Double ?? 0) - 77.0 / 81) < 1e-12 && library?["twoAtOnce"] is NSNull)
        #expect((zones?["debounced"] as? [String: Any])?["medianLatency"] as? Double == 2.5)
    }

    @Test("--plan without zones, fixes without a zone column, bad --events: notes and errors")
    func zoneEdges() throws {
        let f = try zoneFiles()
        let common = ["evaluate", "--fixes", f.fixes, "--truth", f.truth]
        let noZones = try file("no-zones.json", #"{"floors": [{"level": 0}]}"#)
        for format in ["text", "json", "markdown"] {
            let plain = try Tool.run(common + ["--format", format])
            let with = try Tool.run(common + ["--format", format, "--plan", noZones, "--events", f.events])
            #expect(with.status == 0 && with.stdout == plain.stdout)
            #expect(with.stderr.contains("the plan has no zones: no zone figures"))
        }
        let bare = try file("bare.csv", "timestamp,x,y,device\n5,5,5,d\n30,17,5,d")
        let noColumn = try Tool.run(
            ["evaluate", "--fixes", bare, "--truth", f.truth, "--plan", f.plan, "--format", "markdown"])
        #expect(noColumn.status == 0 && noColumn.stderr.contains("no zone column"))
        #expect(!noColumn.stdout.contains("| library |") && noColumn.stdout.contains("| point-in-polygon |"))
        let badEvents = try file("bad-events.csv", "timestamp,region,state\n1,west,inside\n")
        let bad = try Tool.run(common + ["--plan", f.plan, "--events", badEvents, "--output", path("zones.txt")])
        #expect(bad.status != 0 && bad.stderr.contains("satisfied or unsatisfied"))
        #expect(
            bad.stderr.split(separator: "\n").count == 1 && !FileManager.default.fileExists(atPath: path("zones.txt")))
        let badPlan = try Tool.run(common + ["--plan", try file("bad-plan.json", "{")])
        #expect(badPlan.status != 0 && badPlan.stderr.split(separator: "\n").count == 1)
        let noPlan = try Tool.run(common + ["--events", f.events])
        #expect(noPlan.status != 0 && noPlan.stderr.contains("--events needs --plan"))
    }
}
