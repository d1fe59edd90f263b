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

    @Test(
        "SIGTERM, SIGINT and SIGHUP during a long run: exit 128 + signal, no partial file, no output",
        arguments: [SIGTERM, SIGINT, SIGHUP])
    func interrupted(signal number: Int32) throws {
        let folder = try ScratchFolder("output-signal")
        // The bundled walks 250 times over, as 250 devices: several seconds of work even for a
        // release build, so that the signal lands well before the end on a loaded machine too.
        let text = try String(contentsOfFile: LocateCommandTests.rssi, encoding: .utf8)
            .replacingOccurrences(of: "\r\n", with: "\n")
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true)
        let header = String(lines.removeFirst())
        var big = header + "\n"
        for copy in 0..<250 {
            for line in lines {
                var fields = line.split(separator: ",", omittingEmptySubsequences: false)
                fields[1] = "c\(copy)-" + fields[1]
                big += fields.joined(separator: ",") + "\n"
            }
        }
        let rssi = try folder.file("big.csv", big)
        let output = folder.path("fixes.csv")
        let process = Process()
        process.executableURL = Tool.binary
        process.arguments = ["locate", "--plan", LocateCommandTests.plan, "--rssi", rssi, "--output", output, "--quiet"]
        try process.run()
        // Wait for the temporary file, then interrupt.
        let deadline = Date().addingTimeInterval(60)
        func partials() throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter { $0.hasSuffix(".partial") }
        }
        while process.isRunning, try partials().isEmpty, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        try #require(process.isRunning, "locate finished before it could be interrupted; make the input larger")
        kill(process.processIdentifier, number)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 128 + number)
        #expect(try partials().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: output))
    }
}
