import Foundation
import Testing

/// Usage errors are one line on standard error, as every other error is, with where to find help.
@Suite("Usage errors: one line")
struct UsageErrorTests {
    @Test(
        "a missing option, an unknown one, a value that does not parse, a refused combination",
        arguments: [
            (["locate", "--plan", LocateCommandTests.plan], "Missing expected argument '--rssi <rssi>'"),
            (
                ["locate", "--plan", LocateCommandTests.plan, "--rssi", LocateCommandTests.rssi, "-o", "x"],
                "Unknown option '-o'"
            ),
            (
                ["locate", "--plan", LocateCommandTests.plan, "--rssi", LocateCommandTests.rssi, "--epoch", "abc"],
                "'abc' is invalid for '--epoch <epoch>'"
            ),
            (["evaluate", "--fixes", "a.csv"], "Missing expected argument '--truth <truth>'"),
            (
                ["locate", "--plan", LocateCommandTests.plan, "--rssi", LocateCommandTests.rssi, "--epoch", "0x10"],
                "'0x10' is invalid for '--epoch <epoch>': a decimal number"
            ),
            (
                [
                    "locate", "--plan", LocateCommandTests.plan, "--rssi", LocateCommandTests.rssi, "--sample-sigma",
                    "nan"
                ], "'nan' is invalid for '--sample-sigma <sample-sigma>'"
            ),
            (
                [
                    "monitor", "--plan", LocateCommandTests.plan, "--regions", "r.json", "--rssi", "x.csv",
                    "--exit-delay", "inf"
                ], "'inf' is invalid for '--exit-delay <exit-delay>'"
            ),
            (
                [
                    "locate", "--plan", LocateCommandTests.plan, "--rssi", LocateCommandTests.rssi,
                    "--acceleration-density", "1e12"
                ], "accelerationDensity = 1000000000000.0 is out of range"
            ),
            (
                [
                    "locate", "--plan", LocateCommandTests.plan, "--rssi", LocateCommandTests.rssi,
                    "--acceleration-density", "1e-300"
                ], "accelerationDensity = 1e-300 is out of range"
            ),
            (
                [
                    "locate", "--plan", LocateCommandTests.plan, "--rssi", LocateCommandTests.rssi, "--lag", "1",
                    "--tracker", "none"
                ], "--lag refines the tracked positions"
            )
        ])
    func oneLine(arguments: [String], message: String) throws {
        let run = try Tool.run(arguments)
        #expect(run.status == 64)
        #expect(run.stdout.isEmpty)
        let lines = run.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(run.stderr)")
        #expect(run.stderr.contains(message), "\(run.stderr)")
        #expect(run.stderr.hasPrefix("indoorpos \(arguments[0]): "), "\(run.stderr)")
        #expect(run.stderr.contains("(see 'indoorpos \(arguments[0]) --help')"), "\(run.stderr)")
    }

    @Test("help and version still print in full, with status 0")
    func helpAndVersion() throws {
        let help = try Tool.run(["locate", "--help"])
        #expect(help.status == 0 && help.stdout.contains("USAGE:") && help.stdout.contains("--lag"))
        let version = try Tool.run(["--version"])
        #expect(version.status == 0 && !version.stdout.isEmpty)
    }
}
