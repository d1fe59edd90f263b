import Foundation
import Testing

/// Two outputs of one command that are the same file are refused before anything is written
/// (the second would have overwritten the first, and the run then failed).
@Suite("Two outputs naming one file", .serialized)
struct SameOutputTests {
    @Test("evaluate --cdf X --output X (also through a symbolic link, and for an existing X) is refused and X is kept")
    func evaluateCdfAndOutput() throws {
        let folder = try ScratchFolder("same-output")
        let fixes = folder.path("fixes.csv")
        let located = try Tool.run([
            "locate", "--plan", LocateCommandTests.plan, "--rssi", LocateCommandTests.rssi, "--output", fixes
        ])
        #expect(located.status == 0, "\(located.stderr)")
        let truth = LocateCommandTests.rssi.replacingOccurrences(of: "office-rssi", with: "office-truth")
        let target = folder.path("x.svg")
        let link = folder.path("link.svg")
        // A new file named twice, then the same through a link to an existing file.
        for (cdf, output, existing) in [(target, target, false), (target, link, true)] {
            if existing {
                try "keep me".write(toFile: target, atomically: true, encoding: .utf8)
                try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
            }
            let run = try Tool.run(["evaluate", "--fixes", fixes, "--truth", truth, "--cdf", cdf, "--output", output])
            #expect(run.status != 0)
            #expect(run.stderr.contains("--cdf and --output name the same file"), "\(run.stderr)")
            #expect(run.stderr.split(separator: "\n").count == 1)
            if existing {
                #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep me")
            } else {
                #expect(!FileManager.default.fileExists(atPath: target))
            }
        }
        // Different files still work.
        let fine = try Tool.run([
            "evaluate", "--fixes", fixes, "--truth", truth, "--cdf", folder.path("cdf.svg"), "--output",
            folder.path("metrics.txt")
        ])
        #expect(fine.status == 0, "\(fine.stderr)")
    }
}
