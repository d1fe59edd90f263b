import Foundation
import Testing

/// An output file keeps its mode, a read-only one is refused, and an interrupted command leaves
/// no hidden `.NAME.PID.partial` behind.
@Suite("Output files: mode, read-only, interruption", .serialized)
struct OutputFileSafetyTests {
    static let base = ["locate", "--plan", LocateCommandTests.plan, "--rssi", LocateCommandTests.rssi]

    static func mode(_ path: String) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    @Test("an existing 0600 output stays 0600 after it is replaced")
    func modeKept() throws {
        let folder = try ScratchFolder("output-mode")
        let output = try folder.file("fixes.csv", "old\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: output)
        let run = try Tool.run(Self.base + ["--output", output])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try Self.mode(output) == 0o600)
        #expect(try String(contentsOfFile: output, encoding: .utf8).hasPrefix("timestamp,"))
    }

    @Test("a read-only output (0444) is refused in one line and left as it was")
    func readOnlyRefused() throws {
        let folder = try ScratchFolder("output-read-only")
        let output = try folder.file("fixes.csv", "keep me\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: output)
        let run = try Tool.run(Self.base + ["--output", output])
        #expect(run.status != 0)
        #expect(run.stderr.contains("is read-only (mode 444)"), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1)
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "keep me\n")
        #expect(try Self.mode(output) == 0o444)
    }

    /// The bundled walks `copies` times over, as `copies` devices, in `folder`.
    static func bigInput(copies: Int, in folder: ScratchFolder) throws -> String {
        let text = try String(contentsOfFile: LocateCommandTests.rssi, encoding: .utf8)
            .replacingOccurrences(of: "\r\n", with: "\n")
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true)
        let header = String(lines.removeFirst())
        var big = header + "\n"
        for copy in 0..<copies {
            for line in lines {
                var fields = line.split(separator: ",", omittingEmptySubsequences: false)
                fields[1] = "c\(copy)-" + fields[1]
                big += fields.joined(separator: ",") + "\n"
            }
        }
        return try folder.file("big.csv", big)
    }

    /// Starts `locate` writing `output`, waits until its temporary file appears, sends `number`
    /// and returns the process once it has ended (nil when it ended before the file appeared).
    static func interrupt(rssi: String, output: String, in folder: ScratchFolder, with number: Int32) throws -> Process?
    {
        let process = Process()
        let binary = try #require(Tool.binary, "indoorpos is not built; run `swift build --build-tests` first")
        process.executableURL = binary
        process.arguments = ["locate", "--plan", LocateCommandTests.plan, "--rssi", rssi, "--output", output, "--quiet"]
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning, try hidden(in: folder).isEmpty, Date() < deadline { usleep(500) }
        guard process.isRunning else { return nil }
        kill(process.processIdentifier, number)
        process.waitUntilExit()
        return process
    }

    /// The hidden files in `folder` (a `.NAME.PID.partial`, or any other temporary file).
    static func hidden(in folder: ScratchFolder) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasPrefix(".") }
    }

    @Test(
        "SIGTERM, SIGINT and SIGHUP during a long run: exit 128 + signal, no partial file, no output",
        arguments: [SIGTERM, SIGINT, SIGHUP])
    func interrupted(signal number: Int32) throws {
        let folder = try ScratchFolder("output-signal")
        // 250 devices: several seconds of work even for a release build, so that the signal
        // lands well before the end on a loaded machine too.
        let rssi = try Self.bigInput(copies: 250, in: folder)
        let output = folder.path("fixes.csv")
        let process = try #require(
            try Self.interrupt(rssi: rssi, output: output, in: folder, with: number),
            "locate finished before it could be interrupted; make the input larger")
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 128 + number)
        #expect(try Self.hidden(in: folder).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    /// A signal sent the moment the temporary file appears is not lost: the first version
    /// ignored the signals until dispatch sources armed, and about one such run in twenty then
    /// finished with exit 0 (the failure CI saw). Thirty runs, each stopped at once.
    @Test("SIGTERM the moment the temporary file appears, 30 times: always exit 143 and an empty folder")
    func interruptedAtOnce() throws {
        let folder = try ScratchFolder("output-signal-early")
        let rssi = try Self.bigInput(copies: 30, in: folder)
        let output = folder.path("fixes.csv")
        var outcomes: [String] = []
        for _ in 0..<30 {
            guard let process = try Self.interrupt(rssi: rssi, output: output, in: folder, with: SIGTERM) else {
                outcomes.append("finished before its file appeared")
                continue
            }
            let left =
                try Self.hidden(in: folder) + (FileManager.default.fileExists(atPath: output) ? ["fixes.csv"] : [])
            outcomes.append("status \(process.terminationStatus), left \(left)")
            for name in left { try? FileManager.default.removeItem(atPath: folder.path(name)) }
        }
        #expect(outcomes.allSatisfy { $0 == "status 143, left []" }, "\(outcomes)")
    }
}
