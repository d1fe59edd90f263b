import Foundation
import Testing

/// A piped input (`cat f.csv | indoorpos locate --rssi /dev/stdin`) gives what the file gives,
/// also where the input is read twice (grouping by device, smoothing, learning from traffic).
@Suite("Piped input", .serialized)
struct PipedInputTests {
    /// Runs `indoorpos` with `file`'s bytes piped to its standard input.
    static func runPiped(_ arguments: [String], file: String) throws -> (status: Int32, stdout: String, stderr: String)
    {
        try Tool.run(arguments, input: Data(contentsOf: URL(fileURLWithPath: file)))
    }

    @Test(
        "locate --rssi /dev/stdin (grouped by device, --smooth) and calibrate --from-traffic equal the file's output, and leave no copy behind"
    )
    func pipedEqualsFile() throws {
        let plan = LocateCommandTests.plan, rssi = LocateCommandTests.rssi
        let before = try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())
            .filter { $0.hasPrefix("indoorpos-input-") }
        for extra in [[], ["--smooth"]] {
            let direct = try Tool.run(["locate", "--plan", plan, "--rssi", rssi] + extra)
            let piped = try Self.runPiped(["locate", "--plan", plan, "--rssi", "/dev/stdin"] + extra, file: rssi)
            #expect(direct.status == 0 && piped.status == 0, "\(piped.stderr)")
            #expect(!direct.stdout.isEmpty && piped.stdout == direct.stdout, "\(extra)")
        }
        let learned = try Tool.run(["calibrate", "--from-traffic", "--plan", plan, "--rssi", rssi])
        let learnedPiped = try Self.runPiped(
            ["calibrate", "--from-traffic", "--plan", plan, "--rssi", "/dev/stdin"], file: rssi)
        #expect(learned.status == 0 && learnedPiped.status == 0, "\(learnedPiped.stderr)")
        #expect(learnedPiped.stdout == learned.stdout)
        let after = try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())
            .filter { $0.hasPrefix("indoorpos-input-") }
        // Left behind: a new spool file of a process that has ended (the commands above). Files of
        // processes still running belong to other test runs sharing the temporary folder.
        let left = Set(after).subtracting(before).filter { name in
            let pid = name.dropFirst("indoorpos-input-".count).prefix { $0.isNumber }
            guard let pid = Int32(pid) else { return true }
            return kill(pid, 0) != 0
        }
        #expect(left.isEmpty, "\(left)")
    }
}
