import Foundation
import Testing

@Suite("indoorpos render", .serialized)
struct RenderCommandTests {
    let scratch: ScratchFolder

    init() throws { scratch = try ScratchFolder("render") }

    func file(_ name: String, _ text: String) throws -> String { try scratch.file(name, text) }

    func path(_ name: String) -> String { scratch.path(name) }

    @Test("the bundled sample renders to SVG and to an HTML page")
    func sample() throws {
        let fixes = path("fixes.csv")
        _ = try Tool.run([
            "locate", "--plan", LocateCommandTests.plan, "--rssi", LocateCommandTests.rssi,
            "--calibration", LocateCommandTests.calibration, "--quiet", "--output", fixes
        ])
        let truth = LocateCommandTests.examples.appendingPathComponent("office-truth.csv").path
        let svg = try Tool.run(["render", "--plan", LocateCommandTests.plan, "--fixes", fixes, "--truth", truth])
        #expect(svg.status == 0)
        #expect(svg.stdout.hasPrefix("<?xml") && svg.stdout.contains("<polyline") && svg.stdout.contains("<ellipse"))
        let html = try Tool.run([
            "render", "--plan", LocateCommandTests.plan, "--fixes", fixes, "--truth", truth,
            "--format", "html", "--output", path("replay.html")
        ])
        #expect(html.status == 0)
        let page = try String(contentsOfFile: path("replay.html"), encoding: .utf8)
        #expect(page.hasPrefix("<!DOCTYPE html>") && page.contains("<svg"))
        // Self-contained: the only URL is the SVG namespace; nothing is loaded from anywhere.
        #expect(
            page.replacingOccurrences(of: "http://www.w3.org/2000/svg", with: "").range(
                of: "https?:", options: .regularExpression) == nil)
        #expect(!page.contains("src=") && !page.contains("href=") && !page.contains("@import"))
        #expect(page.contains("<input id=\"time\" type=\"range\"") && page.contains("id=\"marker-0\""))
        #expect(page.contains("<script>") && page.contains("const DATA = {"))
    }

    @Test("bad input: one line on standard error, non-zero status, no output file")
    func badInput() throws {
        let plan = LocateCommandTests.plan
        let fixes = try file("fixes.csv", "timestamp,x,y,floor,accuracy\n0,1,1,0,1\n1,2,2,0,1\n")
        let cases: [(arguments: [String], message: String)] = [
            (["--fixes", fixes, "--level", "3"], "level 3 is not in the plan"),
            (["--fixes", fixes, "--device", "phone"], "device 'phone'"),
            (["--fixes", try file("empty.csv", "")], "the file is empty"),
            (["--fixes", try file("header.csv", "timestamp,x,y\n")], "no data rows"),
            (["--truth", try file("bad-truth.csv", "timestamp,x\n0,1\n")], "required column 'y'"),
            (
                ["--events", try file("events.csv", "timestamp,region,state\n1,desk,inside\n")],
                "satisfied or unsatisfied"
            ),
            (["--regions", try file("regions.json", #"{"regions": [{"id": "r", "zone": "kitchen"}]}"#)], "kitchen")
        ]
        for format in ["svg", "html"] {
            for (arguments, message) in cases {
                let result = try Tool.run(
                    ["render", "--plan", plan] + arguments + ["--format", format, "--output", path("out")])
                #expect(result.status != 0, "\(arguments)")
                #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
                #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
                #expect(!FileManager.default.fileExists(atPath: path("out")))
            }
        }
    }
}
