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
            )
        ])
    func refused(options: [String], message: String) throws {
        let run = try Tool.run(
            ["locate", "--plan", LocateCommandTests.plan, "--rssi", LocateCommandTests.rssi] + options)
        #expect(run.status != 0)
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect(run.stdout.isEmpty)
    }
}
