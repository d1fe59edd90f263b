import Foundation
import Testing

@testable import PositioningIO

/// The command line's side of Docs/Reference/BadInput.md: on any failure one line on standard error, a
/// non-zero exit, no partial output file, an existing output file left as it was, and never a
/// write over an input.
@Suite("Bad input: files and the command line", .serialized)
struct BadInputFileTests {
    static let plan = LocateCommandTests.plan
    static let rssi = LocateCommandTests.rssi
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("bad-input-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    func files() throws -> [String] { try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() }

    /// Runs `indoorpos` with standard output into `stdout` (a pipe when nil), killing it after
    /// `timeout` seconds; `timedOut` tells whether it had to be killed.
    static func run(
        _ arguments: [String], stdout: FileHandle? = nil, timeout: Double = 60
    ) throws
        -> (status: Int32, stdout: String, stderr: String, timedOut: Bool)
    {
        guard let binary = Tool.binary else {
            Issue.record("indoorpos is not built; run `swift build --build-tests` first")
            return (-1, "", "", false)
        }
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = stdout ?? out
        process.standardError = err
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        var timedOut = false
        // Drain the pipes on their own threads so a chatty child cannot block on a full pipe.
        nonisolated(unsafe) var outData = Data(), errData = Data()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { errData = err.fileHandleForReading.readDataToEndOfFile() }
        if stdout == nil {
            DispatchQueue.global().async(group: group) { outData = out.fileHandleForReading.readDataToEndOfFile() }
        } else {
            try? out.fileHandleForWriting.close()
        }
        while process.isRunning {
            if Date() > deadline {
                timedOut = true
                process.terminate()
                break
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        process.waitUntilExit()
        group.wait()
        return (
            process.terminationStatus, String(decoding: outData, as: UTF8.self),
            String(decoding: errData, as: UTF8.self), timedOut
        )
    }

    /// The bundled sample with every timestamp multiplied by `factor`.
    func scaledSample(_ factor: Double) throws -> String {
        let lines = try String(contentsOfFile: Self.rssi, encoding: .utf8).split(whereSeparator: \.isNewline)
        let header = lines[0].split(separator: ",")
        let column = header.firstIndex(of: "timestamp")!
        var text = lines[0] + "\n"
        for line in lines.dropFirst() {
            var fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            fields[column] = String(Double(fields[column])! * factor)
            text += fields.joined(separator: ",") + "\n"
        }
        let file = path("scaled.csv")
        try text.write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    @Test("nanosecond timestamps (the sample × 1e9) end at once with one line naming row 2")
    func nanosecondTimestamps() throws {
        let input = try scaledSample(1e9)
        let output = path("fixes.csv")
        let result = try Self.run(["locate", "--plan", Self.plan, "--rssi", input, "--output", output], timeout: 20)
        #expect(!result.timedOut)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("indoorpos: \(input):2: column 'timestamp': '"))
        #expect(
            result.stderr.contains(
                "is not a time in seconds within ±1e10 (divide milliseconds by 1e3, nanoseconds by 1e9)"))
        #expect(result.stderr.filter { $0 == "\n" }.count == 1)
        #expect(!FileManager.default.fileExists(atPath: output))
        // Every row skipped leaves nothing to locate: an error that says why.
        let skipped = try Self.run(["locate", "--plan", Self.plan, "--rssi", input, "--skip-bad-rows"], timeout: 20)
        #expect(!skipped.timedOut)
        #expect(skipped.status == 1)
        #expect(skipped.stderr.contains("no sample could be used"))
        #expect(skipped.stderr.contains("3858 malformed row(s)"))
        #expect(skipped.stdout.isEmpty)
    }

    @Test("one row at 1e308 s among good rows is skipped with --skip-bad-rows, the rest is positioned")
    func oneHugeRow() throws {
        var lines = try String(contentsOfFile: Self.rssi, encoding: .utf8).split(whereSeparator: \.isNewline).map(
            String.init)
        let header = lines[0].split(separator: ",")
        let column = header.firstIndex(of: "timestamp")!
        var fields = lines[100].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        fields[column] = "1e308"
        lines[100] = fields.joined(separator: ",")
        let input = path("one-huge.csv")
        try (lines.joined(separator: "\n") + "\n").write(toFile: input, atomically: true, encoding: .utf8)
        let stopped = try Self.run(["locate", "--plan", Self.plan, "--rssi", input], timeout: 20)
        #expect(stopped.status == 1)
        #expect(
            stopped.stderr.hasPrefix("indoorpos: \(input):101: column 'timestamp': '1e308' is not a time in seconds"))
        let result = try Self.run(["locate", "--plan", Self.plan, "--rssi", input, "--skip-bad-rows"], timeout: 20)
        #expect(!result.timedOut)
        #expect(result.status == 0)
        #expect(result.stderr.contains("locate: 3857 samples, 3857 used"))
        #expect(result.stderr.contains("1 malformed row(s), the first: \(input):101:"))
        #expect(result.stdout.split(separator: "\n").count > 150)
    }

    @Test("an output that is the input (same path, symbolic link, hard link, stdout appended to it) is refused")
    func outputIsInput() throws {
        let input = path("in.csv")
        try FileManager.default.copyItem(atPath: Self.rssi, toPath: input)
        let original = try Data(contentsOf: URL(fileURLWithPath: input))
        try FileManager.default.createSymbolicLink(atPath: path("link.csv"), withDestinationPath: input)
        try FileManager.default.linkItem(atPath: input, toPath: path("hard.csv"))
        for output in [input, path("link.csv"), path("hard.csv"), directory.path + "/./in.csv"] {
            let result = try Self.run(["locate", "--plan", Self.plan, "--rssi", input, "--output", output])
            #expect(result.status == 1)
            #expect(
                result.stderr
                    == "indoorpos: \(output): cannot write: it is the input '\(input)'; write the output to another file\n"
            )
        }
        // The plan is an input too.
        let planCopy = path("plan.json")
        try FileManager.default.copyItem(atPath: Self.plan, toPath: planCopy)
        let onPlan = try Self.run(["locate", "--plan", planCopy, "--rssi", input, "--output", planCopy])
        #expect(onPlan.status == 1)
        #expect(onPlan.stderr.contains("it is the input '\(planCopy)'"))
        // `>> in.csv`: standard output appended to the input.
        let append = try FileHandle(forUpdating: URL(fileURLWithPath: input))
        try append.seekToEnd()
        let appended = try Self.run(["locate", "--plan", Self.plan, "--rssi", input], stdout: append)
        try append.close()
        #expect(appended.status == 1)
        #expect(
            appended.stderr
                == "indoorpos: standard output: cannot write: it is the input '\(input)'; write the output to another file\n"
        )
        #expect(try Data(contentsOf: URL(fileURLWithPath: input)) == original)
        #expect(
            try Data(contentsOf: URL(fileURLWithPath: planCopy)) == Data(contentsOf: URL(fileURLWithPath: Self.plan)))
        #expect(try files() == ["hard.csv", "in.csv", "link.csv", "plan.json"])
        // calibrate refuses to write over its samples.
        let samples = path("samples.csv")
        try "distance,rssi\n1,-60\n2,-66\n4,-72\n8,-78\n".write(toFile: samples, atomically: true, encoding: .utf8)
        let calibrate = try Self.run(["calibrate", "--samples", samples, "--output", samples])
        #expect(calibrate.status == 1)
        #expect(calibrate.stderr.contains("it is the input '\(samples)'"))
        #expect(try String(contentsOfFile: samples, encoding: .utf8) == "distance,rssi\n1,-60\n2,-66\n4,-72\n8,-78\n")
    }

    @Test("a full device (/dev/full) as --output or as standard output: one line, exit 1")
    func fullDevice() throws {
        guard FileManager.default.fileExists(atPath: "/dev/full") else { return }
        let onOutput = try Self.run(["locate", "--plan", Self.plan, "--rssi", Self.rssi, "--output", "/dev/full"])
        #expect(onOutput.status == 1)
        #expect(onOutput.stderr == "indoorpos: /dev/full: cannot write: No space left on device\n")
        let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        let onStdout = try Self.run(["locate", "--plan", Self.plan, "--rssi", Self.rssi], stdout: full)
        #expect(onStdout.status == 1)
        #expect(onStdout.stderr == "indoorpos: standard output: cannot write: No space left on device\n")
        let calibrate = try Self.run(
            [
                "calibrate", "--samples",
                LocateCommandTests.examples.appendingPathComponent("office-calibration.csv").path
            ],
            stdout: full)
        #expect(calibrate.status == 1)
        #expect(calibrate.stderr == "indoorpos: standard output: cannot write: No space left on device\n")
        try full.close()
        // /dev/full is still the device: nothing was moved over it.
        var info = stat()
        #expect(stat("/dev/full", &info) == 0 && info.st_mode & S_IFMT == S_IFCHR)
    }

    @Test("OutputFile: a failed write is kept, commit throws it, and the existing file stays as it was")
    func outputFileFailure() throws {
        let full = try OutputFile(path: "/dev/full")
        full.write(String(repeating: "x", count: 100_000))
        #expect(full.failure == .unwritable(path: "/dev/full", detail: "No space left on device"))
        #expect(throws: FileError.unwritable(path: "/dev/full", detail: "No space left on device")) {
            try full.commit()
        }

        let existing = path("fixes.csv")
        try "keep me\n".write(toFile: existing, atomically: true, encoding: .utf8)
        let abandoned = try OutputFile(path: existing)
        abandoned.write("partial\n")
        abandoned.abandon()
        #expect(try String(contentsOfFile: existing, encoding: .utf8) == "keep me\n")
        #expect(try files() == ["fixes.csv"])

        // Through a symbolic link the target is replaced and the link kept.
        try FileManager.default.createSymbolicLink(atPath: path("link.csv"), withDestinationPath: existing)
        let viaLink = try OutputFile(path: path("link.csv"))
        viaLink.write("new\n")
        try viaLink.commit()
        #expect(try String(contentsOfFile: existing, encoding: .utf8) == "new\n")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: path("link.csv")) == existing)

        // A device is written in place: /dev/null takes everything.
        let null = try OutputFile(path: "/dev/null")
        null.write("anything\n")
        try null.commit()
    }

    @Test("a failing run leaves an existing output file as it was, and an output in a missing folder is one line")
    func existingOutputKept() throws {
        let bad = path("bad.csv")
        try
            "timestamp,uuid,major,minor,rssi\n0,B1E5E0A1-7D2C-4C55-9A51-5D3E2C1A0B0C,1,1,-60\n1,B1E5E0A1-7D2C-4C55-9A51-5D3E2C1A0B0C,1,1,NaN\n"
            .write(toFile: bad, atomically: true, encoding: .utf8)
        let output = path("fixes.csv")
        try "earlier result\n".write(toFile: output, atomically: true, encoding: .utf8)
        let result = try Self.run(["locate", "--plan", Self.plan, "--rssi", bad, "--output", output])
        #expect(result.status == 1)
        #expect(result.stderr == "indoorpos: \(bad):3: column 'rssi': 'NaN' is not a finite number\n")
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "earlier result\n")
        #expect(try files() == ["bad.csv", "fixes.csv"])
        let missing = path("no-such-folder/fixes.csv")
        let nowhere = try Self.run(["locate", "--plan", Self.plan, "--rssi", Self.rssi, "--output", missing])
        #expect(nowhere.status == 1)
        #expect(
            nowhere.stderr
                == "indoorpos: \(missing): cannot write: cannot create the file (does its folder exist, and may it be written?)\n"
        )
    }
}

/// Inputs the fuzzer (Fuzz/FuzzRSSICSV) found, kept as tests.
@Suite("RSSI reader: fuzzer findings")
struct RSSIReaderFuzzRegressionTests {
    @Test("a quoted field left open to the end is one bad row with skipBadRows, an error without")
    func unclosedQuote() throws {
        let text =
            "timestamp,uuid,major,minor,rssi\n0,B1E5E0A1-7D2C-4C55-9A51-5D3E2C1A0B0C,1,2,-70\n0.5,\"B1E5E0A1,1,2,-71\n1,B1E5E0A1-7D2C-4C55-9A51-5D3E2C1A0B0C,1,2,-72\n"
        let strict = try RSSISampleReader(csv: CSVReader(text: text))
        #expect(try strict.next() != nil)
        #expect(throws: FileError.malformedRow(path: "<input>", line: 3, detail: "a quoted field is not closed")) {
            try strict.next()
        }
        let lenient = try RSSISampleReader(csv: CSVReader(text: text), skipBadRows: true)
        var read = 0
        while try lenient.next() != nil { read += 1 }
        #expect(read == 1)
        #expect(lenient.counts.badRows == 1)
        #expect(
            lenient.counts.firstBadRow
                == .malformedRow(path: "<input>", line: 3, detail: "a quoted field is not closed"))
    }
}
