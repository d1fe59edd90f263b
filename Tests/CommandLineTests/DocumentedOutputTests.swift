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
}
