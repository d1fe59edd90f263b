import Foundation
import Testing

/// Options that would be ignored or write empty columns are refused with a usage error that
/// says what they need.
@Suite("Option combinations that do nothing are refused")
struct OptionConflictTests {
    @Test(
        "--report-motion without --motion-modes, and --motion-modes with --tracker none",
        arguments: [
            (["--report-motion"], "--report-motion writes the motion-mode probabilities; it needs --motion-modes"),
            (
                ["--motion-modes", "--tracker", "none"],
                "--motion-modes are modes of the tracker; they need --tracker kalman"
            ),
            (["--lag", "2", "--tracker", "none"], "--lag refines the tracked positions; it needs --tracker kalman"),
            (
                ["--learn-online", "--tracker", "none"],
                "--learn-online learns from the tracked positions; it needs --tracker kalman"
            ),
            (
                ["--lag", "2", "--smooth"],
                "--smooth already uses every later sample; --lag is for output that cannot wait for the end"
            ),
            (["--lag=-1"], "lag must be between 0 and 3600 s, got -1.0")
        ])
    func refused(options: [String], message: String) throws {
        let run = try Tool.run(
            ["locate", "--plan", LocateCommandTests.plan, "--rssi", LocateCommandTests.rssi] + options)
        #expect(run.status != 0)
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect(run.stdout.isEmpty)
    }

    @Test("--lag 0 writes the causal output byte for byte; --lag 3 the same epochs, smoothed")
    func lagOutput() throws {
        let base = ["locate", "--plan", LocateCommandTests.plan, "--rssi", LocateCommandTests.rssi]
        let causal = try Tool.run(base)
        let zero = try Tool.run(base + ["--lag", "0"])
        let lagged = try Tool.run(base + ["--lag", "3"])
        #expect(causal.status == 0 && zero.status == 0 && lagged.status == 0, "\(lagged.stderr)")
        #expect(zero.stdout == causal.stdout)
        let rows = { (text: String) in
            text.split(separator: "\n").dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        }
        let causalRows = rows(causal.stdout), laggedRows = rows(lagged.stdout)
        #expect(laggedRows.count == causalRows.count && !laggedRows.isEmpty)
        let header = causal.stdout.prefix { $0 != "\n" }.split(separator: ",")
        let source = try #require(header.firstIndex(of: "source"))
        let device = try #require(header.firstIndex(of: "device"))
        // Devices may interleave differently (reports wait out the lag), each in time order.
        let epochs = { (rows: [[Substring]]) in rows.map { "\($0[device]) \($0[0])" }.sorted() }
        #expect(epochs(laggedRows) == epochs(causalRows))
        #expect(laggedRows.contains { $0[source] == "smoothed" })
        #expect(!laggedRows.contains { $0[source] == "tracked" })
        #expect(laggedRows.map { $0[1] }.sorted() != causalRows.map { $0[1] }.sorted())
    }
}
