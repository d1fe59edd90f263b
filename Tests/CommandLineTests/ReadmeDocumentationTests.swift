import Foundation
import Testing

/// The README's documentation command builds the archive the test command builds and checks
/// (it once left out LinearAlgebra, so `ErrorEllipse` had no page).
@Suite("README: the documentation command")
struct ReadmeDocumentationTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The `--target` names of the first `generate-documentation` command in `text` (its
    /// continuation lines included).
    static func targets(in text: String) -> [String] {
        guard let start = text.range(of: "generate-documentation") else { return [] }
        var command = ""
        for line in text[start.lowerBound...].split(separator: "\n", omittingEmptySubsequences: false) {
            command += line + " "
            if !line.hasSuffix("\\") { break }
        }
        let words = command.split(separator: " ")
        return zip(words, words.dropFirst()).filter { $0.0 == "--target" }.map { String($0.1) }.sorted()
    }

    @Test("the README and Scripts/test.sh name the same targets")
    func sameTargets() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let script = try String(contentsOf: Self.root.appendingPathComponent("Scripts/test.sh"), encoding: .utf8)
        let documented = Self.targets(in: readme), tested = Self.targets(in: script)
        #expect(tested.contains("LinearAlgebra") && tested.count >= 6, "\(tested)")
        #expect(documented == tested)
    }
}
