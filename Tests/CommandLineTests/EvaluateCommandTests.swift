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
}
