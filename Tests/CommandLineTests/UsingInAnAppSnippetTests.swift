import Foundation
import Testing

/// Every Swift snippet of `Docs/Guide/UsingInAnApp.md` is code of the `inanapp` example target, which
/// the package compiles with every build and the test suite runs: each line of a snippet (its
/// code, without a trailing comment) is found in the target's sources.
@Suite("Docs/Guide/UsingInAnApp.md: every snippet is compiled code of the inanapp target")
struct UsingInAnAppSnippetTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// A line without its trailing `//` comment and with runs of spaces made one.
    static func normalized(_ line: Substring) -> String {
        var code = String(line)
        if let comment = code.range(of: "//") { code = String(code[..<comment.lowerBound]) }
        return code.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }

    /// The Swift blocks of the page, each with the heading of its section.
    static func snippets(_ page: String) -> [(section: String, lines: [Substring])] {
        var result: [(String, [Substring])] = []
        var section = "", block: [Substring]? = nil
        for line in page.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("## ") { section = String(line.dropFirst(3)) }
            if line == "```swift" {
                block = []
            } else if line == "```", let finished = block {
                result.append((section, finished))
                block = nil
            } else if block != nil {
                block!.append(line)
            }
        }
        return result
    }

    @Test("each code line of each snippet of sections 1–6 is in Docs/Examples/InAnApp")
    func snippetsAreCompiled() throws {
        let page = try String(
            contentsOf: Self.root.appendingPathComponent("Docs/Guide/UsingInAnApp.md"), encoding: .utf8)
        let folder = Self.root.appendingPathComponent("Docs/Examples/InAnApp")
        var sources = ""
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) where file.hasSuffix(".swift") {
            sources += try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8) + "\n"
        }
        let known = Set(sources.split(separator: "\n").map(Self.normalized))
        let snippets = Self.snippets(page)
        // Section 7 needs CoreLocation, which is not on this platform (the page says so).
        let checked = snippets.filter { !$0.section.contains("iOS") }
        #expect(checked.count >= 8, "found \(checked.count) snippets")
        #expect(checked.contains { $0.section.contains("traffic") })
        for snippet in checked {
            for line in snippet.lines {
                let code = Self.normalized(line)
                guard !code.isEmpty else { continue }
                let found = known.contains(code)
                #expect(found, "\(snippet.section): `\(code)` is not in the inanapp sources")
            }
        }
    }
}
