import Foundation
import Testing

/// Files written by other tools often end without a line end: every command reads them exactly
/// as the same file with one (this crashed every reader before).
@Suite("Commands on files without a final newline", .serialized)
struct FinalNewlineCommandTests {
    /// Writes `text` and the same text with its final line end removed; returns both paths.
    static func pair(_ folder: ScratchFolder, _ name: String, _ text: String) throws -> (with: String, without: String)
    {
        var trimmed = text
        while trimmed.hasSuffix("\n") || trimmed.hasSuffix("\r") { trimmed.removeLast() }
        return (try folder.file("with-" + name, text), try folder.file("without-" + name, trimmed))
    }

    @Test("calibrate --samples: the same calibration with and without the final newline")
    func calibrate() throws {
        let folder = try ScratchFolder("final-newline")
        let files = try Self.pair(folder, "samples.csv", "distance,rssi\n1,-60\n2,-66\n4,-72\n")
        let with = try BadInputFileTests.run(["calibrate", "--samples", files.with])
        let without = try BadInputFileTests.run(["calibrate", "--samples", files.without])
        #expect(with.status == 0, "\(with.stderr)")
        #expect(without.status == 0, "\(without.stderr)")
        #expect(!with.stdout.isEmpty && with.stdout == without.stdout)
    }

    @Test(
        "locate --rssi and evaluate --fixes/--truth: the same output with and without the final newline (LF and CRLF)")
    func locateAndEvaluate() throws {
        let folder = try ScratchFolder("final-newline")
        let rssi = try String(contentsOfFile: LocateCommandTests.rssi, encoding: .utf8)
            .replacingOccurrences(of: "\r\n", with: "\n")
        let truthText = try String(
            contentsOfFile: LocateCommandTests.rssi.replacingOccurrences(of: "office-rssi", with: "office-truth"),
            encoding: .utf8
        ).replacingOccurrences(of: "\r\n", with: "\n")
        for lineEnd in ["\n", "\r\n"] {
            let text = rssi.replacingOccurrences(of: "\n", with: lineEnd)
            let files = try Self.pair(folder, "rssi.csv", text)
            let with = try BadInputFileTests.run(["locate", "--plan", LocateCommandTests.plan, "--rssi", files.with])
            let without = try BadInputFileTests.run([
                "locate", "--plan", LocateCommandTests.plan, "--rssi", files.without
            ])
            #expect(with.status == 0 && without.status == 0, "\(without.stderr)")
            #expect(!with.stdout.isEmpty && with.stdout == without.stdout)

            let fixes = try Self.pair(folder, "fixes.csv", with.stdout.replacingOccurrences(of: "\n", with: lineEnd))
            let truth = try Self.pair(folder, "truth.csv", truthText.replacingOccurrences(of: "\n", with: lineEnd))
            let scored = try BadInputFileTests.run(["evaluate", "--fixes", fixes.with, "--truth", truth.with])
            let scoredWithout = try BadInputFileTests.run([
                "evaluate", "--fixes", fixes.without, "--truth", truth.without
            ])
            #expect(scored.status == 0, "\(scored.stderr)")
            #expect(scoredWithout.status == 0, "\(scoredWithout.stderr)")
            #expect(scored.stdout == scoredWithout.stdout)
        }
    }
}
