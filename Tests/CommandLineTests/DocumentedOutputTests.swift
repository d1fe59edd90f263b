import Foundation
import Testing

/// The outputs the guides show are what the commands print: each documented run is run as a
/// subprocess on the bundled files and compared with the page, so a guide cannot go stale (the
/// monitoring guide once showed 29 events and a flag the command no longer printed).
@Suite("Docs: the documented outputs are what the commands print")
struct DocumentedOutputTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The first fenced block (```` ``` ```` without a language) after `marker` in `page`, and
    /// the text between the first backquotes after `marker` (the quoted summary line).
    static func documented(in page: String, after marker: String) -> (summary: String, block: String)? {
        guard let at = page.range(of: marker) else { return nil }
        let rest = page[at.upperBound...]
        guard let open = rest.firstIndex(of: "`") else { return nil }
        let afterOpen = rest[rest.index(after: open)...]
        guard let close = afterOpen.firstIndex(of: "`") else { return nil }
        let summary = String(afterOpen[..<close]).replacingOccurrences(of: "\n", with: " ")
        guard let fence = afterOpen.range(of: "\n```\n") else { return nil }
        let body = afterOpen[fence.upperBound...]
        guard let end = body.range(of: "\n```") else { return nil }
        return (summary, String(body[..<end.lowerBound]))
    }

    @Test("Docs/Guide/Monitoring.md: the bundled sample's events and summary line")
    func monitoringGuide() throws {
        let page = try String(contentsOf: Self.root.appendingPathComponent("Docs/Guide/Monitoring.md"), encoding: .utf8)
        let doc = try #require(Self.documented(in: page, after: "command above prints (standard error:"))
        let examples = Self.root.appendingPathComponent("Docs/Examples").path
        let run = try Tool.run([
            "monitor", "--plan", examples + "/office-plan.json", "--regions", examples + "/office-regions.json",
            "--rssi", examples + "/office-rssi.csv"
        ])
        #expect(run.status == 0)
        #expect(run.stdout.trimmingCharacters(in: .newlines) == doc.block)
        #expect(run.stderr.trimmingCharacters(in: .whitespacesAndNewlines) == doc.summary)
    }

    /// The first ```` ```text ```` block after `marker` in `page`.
    static func textBlock(in page: String, after marker: String) -> String? {
        guard let at = page.range(of: marker) else { return nil }
        let rest = page[at.upperBound...]
        guard let fence = rest.range(of: "```text\n") else { return nil }
        let body = rest[fence.upperBound...]
        guard let end = body.range(of: "\n```") else { return nil }
        return String(body[..<end.lowerBound])
    }

    @Test("Docs/Guide/GettingStarted.md: the first positions, their first row and evaluate's table")
    func gettingStarted() throws {
        let page = try String(
            contentsOf: Self.root.appendingPathComponent("Docs/Guide/GettingStarted.md"), encoding: .utf8)
        let rows = try #require(Self.textBlock(in: page, after: "`fixes.csv` has one row per device and second:"))
        let table = try #require(Self.textBlock(in: page, after: "`evaluate` compares the positions"))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("started-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let examples = Self.root.appendingPathComponent("Docs/Examples").path
        let locate = try Tool.run(
            [
                "locate", "--plan", examples + "/office-plan.json", "--rssi", examples + "/office-rssi.csv",
                "--calibration", examples + "/office-calibration.json", "--output", "fixes.csv"
            ], directory: directory)
        #expect(locate.status == 0)
        let fixes = try String(contentsOf: directory.appendingPathComponent("fixes.csv"), encoding: .utf8)
        #expect(fixes.split(separator: "\n").prefix(2).joined(separator: "\n") == rows)
        let evaluate = try Tool.run(
            ["evaluate", "--fixes", "fixes.csv", "--truth", examples + "/office-truth.csv"], directory: directory)
        #expect(evaluate.status == 0)
        #expect(evaluate.stdout.trimmingCharacters(in: .newlines) == table)
    }

    @Test("Docs/Guide/Monitoring.md: the bundled sample's zone figures (locate, monitor, evaluate --plan --events)")
    func zoneFigures() throws {
        let page = try String(contentsOf: Self.root.appendingPathComponent("Docs/Guide/Monitoring.md"), encoding: .utf8)
        let tables = try #require(Self.textBlock(in: page, after: "second table in Markdown):"))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("zones-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let e = Self.root.appendingPathComponent("Docs/Examples").path
        let inputs = [
            "--plan", e + "/office-plan.json", "--rssi", e + "/office-rssi.csv",
            "--calibration", e + "/office-calibration.json"
        ]
        let locate = try Tool.run(["locate"] + inputs + ["--quiet", "--output", "fixes.csv"], directory: directory)
        let monitor = try Tool.run(["monitor"] + inputs + ["--output", "events.csv"], directory: directory)
        #expect(locate.status == 0 && monitor.status == 0)
        let evaluate = try Tool.run(
            [
                "evaluate", "--fixes", "fixes.csv", "--truth", e + "/office-truth.csv", "--plan",
                e + "/office-plan.json",
                "--events", "events.csv", "--format", "markdown"
            ], directory: directory)
        #expect(evaluate.status == 0)
        #expect(evaluate.stdout.trimmingCharacters(in: .newlines) == tables)
    }
}
