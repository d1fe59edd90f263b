import Foundation
import Testing

/// The findings of the adversarial bad-input pass of issue 47 (part B) on files, signals and
/// messages, each run as `indoorpos` does it (Docs/Reference/BadInput.md lists what each input gets).
@Suite("Bad input: files, signals and messages (issue 47 B)", .serialized)
struct BadInputPartBTests {
    static let plan = LocateCommandTests.plan
    static let rssi = LocateCommandTests.rssi
    static let regions = LocateCommandTests.examples.appendingPathComponent("office-regions.json").path
    static let calibration = LocateCommandTests.examples.appendingPathComponent("office-calibration.json").path
    static let uuid = "B1E5E0A1-7D2C-4C55-9A51-5D3E2C1A0B0C"

    /// The bundled sample's lines (header first).
    static func sampleLines() throws -> [String] {
        try String(contentsOfFile: rssi, encoding: .utf8).split(whereSeparator: \.isNewline).map(String.init)
    }

    /// Runs `indoorpos` with `environment` added, `input`'s bytes on standard input when given.
    static func run(
        _ arguments: [String], input: Data? = nil, environment: [String: String] = [:]
    ) throws -> (status: Int32, stdout: String, stderr: String) {
        try Tool.run(arguments, input: input, environment: environment)
    }

    // MARK: 4. A row over 1 MiB with --skip-bad-rows

    @Test("--skip-bad-rows passes over one row longer than 1 MiB and reads on (locate, monitor, calibrate)")
    func overlongRowSkipped() throws {
        let folder = try ScratchFolder("overlong")
        var lines = try Self.sampleLines()
        var fields = lines[1929].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        fields[1] = String(repeating: "x", count: 2 << 20)
        lines[1929] = fields.joined(separator: ",")
        // CRLF line ends: the skip takes the row's CR and LF.
        let input = try folder.file("long.csv", lines.joined(separator: "\r\n") + "\r\n")
        let locate = try Self.run(["locate", "--plan", Self.plan, "--rssi", input, "--skip-bad-rows"])
        #expect(locate.status == 0)
        #expect(locate.stderr.contains("locate: 3857 samples, 3857 used, 168 positions; skipped 1 malformed row(s)"))
        #expect(locate.stderr.contains("long.csv:1930: the row is longer than 1 MiB"))
        let monitor = try Self.run([
            "monitor", "--plan", Self.plan, "--regions", Self.regions, "--rssi", input, "--skip-bad-rows"
        ])
        #expect(monitor.status == 0)
        #expect(monitor.stderr.contains("monitor: 3857 samples, 6 regions, 3 device(s)"))
        #expect(monitor.stderr.contains("skipped 1 malformed row(s), the first: \(input):1930:"))
        let calibrate = try Self.run([
            "calibrate", "--from-traffic", "--plan", Self.plan, "--rssi", input, "--skip-bad-rows"
        ])
        #expect(calibrate.status == 0)
        #expect(calibrate.stderr.contains("self-calibration: 3857 samples"))
        #expect(calibrate.stderr.contains("  skipped 1 malformed row(s), the first: \(input):1930:"))
        // Without --skip-bad-rows it stops there, as before.
        let strict = try Self.run(["locate", "--plan", Self.plan, "--rssi", input])
        #expect(strict.status == 1)
        #expect(
            strict.stderr.hasSuffix(
                "long.csv:1930: the row is longer than 1 MiB without a line end; is this a CSV file?\n"))
    }

    // MARK: 5. Signals

    /// The bundled walks 30 times over, as 90 devices: about a second of work.
    static func bigInput(in folder: ScratchFolder) throws -> String {
        try OutputFileSafetyTests.bigInput(copies: 30, in: folder)
    }

    @Test(
        "SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM: the piped copy and the partial output removed, one line, 128 + signal, old output kept",
        arguments: [SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM])
    func otherSignals(signal number: Int32) throws {
        let folder = try ScratchFolder("signals")
        let temporary = try ScratchFolder("signals-tmp")
        let big = try Data(contentsOf: URL(fileURLWithPath: try Self.bigInput(in: folder)))
        let output = folder.path("fixes.csv")
        try "old output\n".write(toFile: output, atomically: true, encoding: .utf8)
        let binary = try #require(Tool.binary)
        let process = Process()
        process.executableURL = binary
        process.arguments = ["locate", "--plan", Self.plan, "--rssi", "/dev/stdin", "--output", output, "--quiet"]
        process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": temporary.url.path]) { $1 }
        let stdin = Pipe(), err = Pipe()
        process.standardInput = stdin
        process.standardError = err
        try process.run()
        nonisolated(unsafe) var errData = Data()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { errData = err.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: group) {
            stdin.fileHandleForWriting.write(big)
            try? stdin.fileHandleForWriting.close()
        }
        // Once the output's temporary file is there, the piped copy is complete beside it.
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning, try OutputFileSafetyTests.hidden(in: folder).isEmpty, Date() < deadline { usleep(500) }
        try #require(process.isRunning, "locate finished before it could be interrupted")
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.url.path).count == 1)
        kill(process.processIdentifier, number)
        process.waitUntilExit()
        group.wait()
        let message = String(decoding: errData, as: UTF8.self)
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 128 + number)
        #expect(message.hasPrefix("indoorpos: stopped by SIG"), "\(message)")
        #expect(message.split(separator: "\n").count == 1, "\(message)")
        #expect(!message.contains("crashed"))
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "old output\n")
        #expect(try OutputFileSafetyTests.hidden(in: folder).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.url.path).isEmpty)
    }

    @Test("the file-size limit (ulimit -f): an error naming it, exit 1, the old output kept, no partial file")
    func fileSizeLimit() throws {
        let folder = try ScratchFolder("file-size")
        let input = try Self.bigInput(in: folder)
        let output = folder.path("fixes.csv")
        try "old output\n".write(toFile: output, atomically: true, encoding: .utf8)
        let binary = try #require(Tool.binary)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        // 100 blocks of 512 bytes: the input is already there; the output would be megabytes.
        process.arguments = [
            "-c", "ulimit -f 100 && exec \"$0\" locate --plan \"$1\" --rssi \"$2\" --output \"$3\" --quiet",
            binary.path, Self.plan, input, output
        ]
        let err = Pipe()
        process.standardError = err
        try process.run()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 1)
        #expect(
            message
                == "indoorpos: \(output): cannot write: File too large (the file-size limit, see ulimit -f, was reached)\n"
        )
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "old output\n")
        #expect(try OutputFileSafetyTests.hidden(in: folder).isEmpty)
    }

    // MARK: 6. Calibration JSON

    @Test("calibration JSON: over 16 MiB, fitting none of the plan's beacons, an exponent of 1e-300: one line each")
    func calibrationFiles() throws {
        let folder = try ScratchFolder("calibration-json")
        var text = try String(contentsOfFile: Self.calibration, encoding: .utf8)
        // 17 MiB: spaces before the document.
        let huge = folder.path("huge.json")
        try (String(repeating: " ", count: 17 << 20) + text).write(toFile: huge, atomically: true, encoding: .utf8)
        let tooLarge = try Self.run(["locate", "--plan", Self.plan, "--rssi", Self.rssi, "--calibration", huge])
        #expect(tooLarge.status == 1)
        #expect(
            tooLarge.stderr
                == "indoorpos: \(huge): cannot read: it is larger than 16 MiB; a calibration file is a few hundred bytes per beacon, check that this is the calibration file\n"
        )
        // Another site's beacons.
        let other = try folder.file(
            "other.json", text.replacingOccurrences(of: Self.uuid, with: "11111111-2222-3333-4444-555555555555"))
        for command in [["locate"], ["monitor", "--regions", Self.regions]] {
            let result = try Self.run(command + ["--plan", Self.plan, "--rssi", Self.rssi, "--calibration", other])
            #expect(result.status == 1)
            #expect(
                result.stderr
                    == "indoorpos: \(other): calibrates none of the plan's beacons (its 12 beacon fit(s) are for others, such as 11111111-2222-3333-4444-555555555555:1:1; the plan has \(Self.uuid):1:1 …); check that the file belongs to this plan\n"
            )
        }
        let described = try Self.run(["describe", "--plan", Self.plan, "--calibration", other])
        #expect(described.status == 0)
        #expect(described.stdout.contains("warning: the calibration file fits none of them"))
        #expect(!described.stdout.contains("overall fit"))
        #expect(described.stdout.contains("-61.0 dBm, n = 1.50 (plan values, calibration file's sigma)"))
        // An exponent the engine refuses.
        text = text.replacingOccurrences(of: "\"pathLossExponent\" : 1.4788", with: "\"pathLossExponent\" : 1e-300")
        let tiny = try folder.file("tiny.json", text)
        let refused = try Self.run(["locate", "--plan", Self.plan, "--rssi", Self.rssi, "--calibration", tiny])
        #expect(refused.status == 1)
        #expect(
            refused.stderr
                == "indoorpos: \(tiny): all.pathLossExponent: 1e-300 is not a path-loss exponent the engine accepts (0.1 to 20)\n"
        )
        // Read from a pipe, as plans and regions are.
        let piped = try Self.run(
            ["locate", "--plan", Self.plan, "--rssi", Self.rssi, "--calibration", "/dev/stdin"],
            input: try Data(contentsOf: URL(fileURLWithPath: Self.calibration)))
        let direct = try Self.run([
            "locate", "--plan", Self.plan, "--rssi", Self.rssi, "--calibration", Self.calibration
        ])
        #expect(piped.status == 0)
        #expect(piped.stdout == direct.stdout)
    }

    // MARK: 7. Silent input mistakes

    @Test("hexadecimal in an RSSI file is a malformed value, not −70 or +16")
    func hexadecimalNumbers() throws {
        let folder = try ScratchFolder("hexadecimal")
        var lines = try Self.sampleLines()
        lines[5] = lines[5].replacingOccurrences(of: ",-", with: ",-0x", options: .backwards)
        let rssiHex = try folder.file("rssi.csv", lines.joined(separator: "\n") + "\n")
        let result = try Self.run(["locate", "--plan", Self.plan, "--rssi", rssiHex])
        #expect(result.status == 1)
        #expect(result.stderr.contains("\(rssiHex):6: column 'rssi': '-0x"))
        #expect(
            result.stderr.contains("is not a finite number written in decimal (hexadecimal such as 0x10 is not read)"))
        lines = try Self.sampleLines()
        var fields = lines[5].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        fields[0] = "0x10"
        lines[5] = fields.joined(separator: ",")
        let timeHex = try folder.file("time.csv", lines.joined(separator: "\n") + "\n")
        let skipped = try Self.run(["locate", "--plan", Self.plan, "--rssi", timeHex, "--skip-bad-rows"])
        #expect(skipped.status == 0)
        #expect(skipped.stderr.contains("locate: 3857 samples"))
        #expect(skipped.stderr.contains("'0x10' is not a time in seconds written in decimal"))
    }

    @Test("monitor and calibrate --from-traffic report rows with no reading, unknown beacons and malformed rows")
    func skippedRowsReported() throws {
        let folder = try ScratchFolder("skipped-reported")
        var lines = try Self.sampleLines()
        lines[3] = lines[3].replacingOccurrences(of: Self.uuid, with: "11111111-2222-3333-4444-555555555555")
        var fields = lines[4].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        fields[fields.count - 1] = "0"
        lines[4] = fields.joined(separator: ",")
        lines[6] = lines[6].replacingOccurrences(of: ",1,", with: ",one,")
        let input = try folder.file("rssi.csv", lines.joined(separator: "\n") + "\n")
        let monitor = try Self.run([
            "monitor", "--plan", Self.plan, "--regions", Self.regions, "--rssi", input, "--skip-bad-rows"
        ])
        #expect(monitor.status == 0)
        #expect(
            monitor.stderr.contains(
                "; skipped 1 with no reading (rssi 0 or 127), 1 of beacons not in the plan, 1 malformed row(s), the first: \(input):7:"
            ), "\(monitor.stderr)")
        let calibrate = try Self.run([
            "calibrate", "--from-traffic", "--plan", Self.plan, "--rssi", input, "--skip-bad-rows"
        ])
        #expect(calibrate.status == 0)
        #expect(
            calibrate.stderr.contains(
                "  skipped 1 with no reading (rssi 0 or 127), 1 of beacons not in the plan, 1 malformed row(s), the first: \(input):7:"
            ), "\(calibrate.stderr)")
    }

    @Test("a device name with NUL or escape is malformed; NFC and NFD spellings are one device, written in NFC")
    func deviceNames() throws {
        let folder = try ScratchFolder("device-names")
        var lines = try Self.sampleLines()
        lines[8] = lines[8].replacingOccurrences(of: "rectangular_with_rotation", with: "phone\u{0}\u{1B}[31m")
        let input = try folder.file("nul.csv", lines.joined(separator: "\n") + "\n")
        let refused = try Self.run(["locate", "--plan", Self.plan, "--rssi", input])
        #expect(refused.status == 1)
        #expect(
            refused.stderr
                == "indoorpos: \(input):9: column 'device': 'phone\\u0000\\u001B[31m' is not a device name without control characters such as NUL or escape\n"
        )
        let skipped = try Self.run(["locate", "--plan", Self.plan, "--rssi", input, "--skip-bad-rows"])
        #expect(skipped.status == 0)
        #expect(!skipped.stdout.contains("\u{0}"))
        // One walk with its rows named café alternately in NFC and NFD.
        let composed = "caf\u{E9}", decomposed = "cafe\u{301}"
        lines = try Self.sampleLines()
        let header = lines[0].split(separator: ",").map(String.init)
        let device = try #require(header.firstIndex(of: "device"))
        var rows = [lines[0]]
        for (index, line) in lines.dropFirst().prefix(1200).enumerated() {
            var fields = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            fields[device] = index.isMultiple(of: 2) ? composed : decomposed
            rows.append(fields.joined(separator: ","))
        }
        let mixed = try folder.file("mixed.csv", rows.joined(separator: "\n") + "\n")
        for jobs in ["1", "2"] {
            let result = try Self.run(["locate", "--plan", Self.plan, "--rssi", mixed, "--jobs", jobs])
            #expect(result.status == 0)
            let names = Set(result.stdout.split(separator: "\n").dropFirst().map { $0.split(separator: ",")[5] })
            #expect(names.count == 1 && names.first.map { Array($0.utf8) == Array(composed.utf8) } == true, "\(names)")
        }
        let monitor = try Self.run(["monitor", "--plan", Self.plan, "--regions", Self.regions, "--rssi", mixed])
        #expect(monitor.stderr.contains("1 device(s)"))
    }

    @Test("a circle region on a level the plan lacks is an error naming the region and the plan's levels")
    func circleOnMissingLevel() throws {
        let folder = try ScratchFolder("circle-level")
        let file = try folder.file(
            "regions.json",
            #"{"regions": [{"id": "desk", "circle": {"x": 5, "y": 5, "radius": 2}}, {"id": "loft", "circle": {"x": 5, "y": 5, "radius": 2, "level": 3}}]}"#
        )
        let result = try Self.run(["monitor", "--plan", Self.plan, "--regions", file, "--rssi", Self.rssi])
        #expect(result.status == 1)
        #expect(
            result.stderr
                == "indoorpos: regions[1].circle.level: region \"loft\" is a circle on level 3, which the plan has no floor at (its levels: 0); it could never be entered\n"
        )
    }

    // MARK: 8. Messages

    @Test("negative option values are values, not 'Missing value'")
    func negativeOptionValues() throws {
        let monitor = try Self.run([
            "monitor", "--plan", Self.plan, "--regions", Self.regions, "--rssi", Self.rssi, "--enter-rssi", "-70",
            "--exit-rssi", "-80"
        ])
        #expect(monitor.status == 0, "\(monitor.stderr)")
        let locate = try Self.run(["locate", "--plan", Self.plan, "--rssi", Self.rssi, "--device-offset", "-5"])
        #expect(locate.status == 0, "\(locate.stderr)")
        let render = try Self.run(["render", "--plan", Self.plan, "--level", "-1"])
        #expect(render.status == 1)
        #expect(render.stderr == "indoorpos: level -1 is not in the plan; its levels are 0\n")
        let lag = try Self.run(["locate", "--plan", Self.plan, "--rssi", Self.rssi, "--lag", "-1"])
        #expect(lag.status == 64)
        #expect(!lag.stderr.contains("Missing value"))
    }

    @Test("control characters of a bad header are escaped; a piped input's errors name standard input")
    func messages() throws {
        let folder = try ScratchFolder("messages")
        let text = "a\u{0}b\u{1B}[31m,c\n1,2\n"
        let input = try folder.file("binary.csv", text)
        let direct = try Self.run(["locate", "--plan", Self.plan, "--rssi", input])
        #expect(direct.status == 1)
        #expect(
            direct.stderr
                == "indoorpos: \(input): required column 'timestamp' is missing (header has: a\\u0000b\\u001B[31m,c)\n")
        let piped = try Self.run(["locate", "--plan", Self.plan, "--rssi", "/dev/stdin"], input: Data(text.utf8))
        #expect(piped.status == 1)
        #expect(
            piped.stderr
                == "indoorpos: standard input: required column 'timestamp' is missing (header has: a\\u0000b\\u001B[31m,c)\n"
        )
        let empty = try Self.run(
            ["locate", "--plan", Self.plan, "--rssi", "/dev/stdin", "--skip-bad-rows"],
            input: Data("timestamp,uuid,major,minor,rssi\n1,x,1,1,-60\n".utf8))
        #expect(empty.status == 1)
        #expect(empty.stderr.hasPrefix("indoorpos: standard input: no sample could be used"), "\(empty.stderr)")
    }

    @Test("output names of 241 to 255 bytes are written; longer ones are refused for their length")
    func longOutputNames() throws {
        let folder = try ScratchFolder("long-names")
        for length in [241, 250, 255] {
            let output = folder.path(String(repeating: "o", count: length - 4) + ".csv")
            let result = try Self.run([
                "locate", "--plan", Self.plan, "--rssi", Self.rssi, "--output", output, "--quiet"
            ])
            #expect(result.status == 0, "\(length): \(result.stderr)")
            #expect(FileManager.default.fileExists(atPath: output))
        }
        let tooLong = folder.path(String(repeating: "o", count: 252) + ".csv")
        let refused = try Self.run(["locate", "--plan", Self.plan, "--rssi", Self.rssi, "--output", tooLong])
        #expect(refused.status == 1)
        #expect(
            refused.stderr
                == "indoorpos: \(tooLong): cannot write: the file name is 256 bytes long; a file system takes at most 255\n"
        )
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).count == 3)
    }
}
