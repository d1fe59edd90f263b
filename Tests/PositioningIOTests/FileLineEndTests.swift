import Foundation
import Testing

@testable import PositioningIO

/// Files as other tools write them: with and without a final line end, CRLF or a lone CR, and
/// read with the block boundary falling anywhere, including inside the last row. Every variant
/// must give the same rows as the plain LF file.
@Suite("CSV files: line ends and block boundaries")
struct FileLineEndTests {
    static let rows = [
        ["timestamp", "uuid", "major", "minor", "rssi", "device"],
        ["0.5", "B1E5E0A1-7D2C-4C55-9A51-5D3E2C1A0B0C", "1", "2", "-70", "phone"],
        ["1.25", "B1E5E0A1-7D2C-4C55-9A51-5D3E2C1A0B0C", "1", "3", "-71.5", "\"quoted, name\""],
        ["2", "B1E5E0A1-7D2C-4C55-9A51-5D3E2C1A0B0C", "1", "4", "-66", "last"]
    ]

    /// The file's text with `lineEnd` after each row, and after the last one only when `final`.
    static func text(lineEnd: String, final: Bool) -> String {
        rows.map { $0.joined(separator: ",") }.joined(separator: lineEnd) + (final ? lineEnd : "")
    }

    static let variants: [(name: String, text: String)] = [
        ("LF", text(lineEnd: "\n", final: true)),
        ("LF without the final one", text(lineEnd: "\n", final: false)),
        ("CRLF", text(lineEnd: "\r\n", final: true)),
        ("CRLF without the final one", text(lineEnd: "\r\n", final: false)),
        ("CR", text(lineEnd: "\r", final: true)),
        ("CR without the final one", text(lineEnd: "\r", final: false)),
        ("LF with a lone CR at the end", text(lineEnd: "\n", final: false) + "\r")
    ]

    static func write(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("line-ends-\(UUID().uuidString).csv")
            .path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Every row of the file at `path`, read `blockSize` bytes at a time.
    static func allRows(_ path: String, blockSize: Int) throws -> [[String]] {
        let reader = try CSVReader(path: path, blockSize: blockSize)
        var result = [reader.header]
        while let row = try reader.next() { result.append(row.map { String(CSVReader.trimmed($0)) }) }
        return result
    }

    @Test(
        "every line-end variant reads the same rows with every block size from 1 byte to the whole file",
        arguments: variants.map(\.name))
    func sameRows(variant: String) throws {
        let text = try #require(Self.variants.first { $0.name == variant }).text
        let path = try Self.write(text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        var expected = Self.rows
        expected[2][5] = "quoted, name"
        for blockSize in 1...(text.utf8.count + 1) {
            #expect(try Self.allRows(path, blockSize: blockSize) == expected, "block size \(blockSize)")
        }
    }

    @Test("the RSSI reader reads all three samples of a file without a final newline")
    func samplesWithoutFinalNewline() throws {
        for variant in Self.variants {
            let path = try Self.write(variant.text)
            defer { try? FileManager.default.removeItem(atPath: path) }
            let reader = try RSSISampleReader(path: path)
            var rssi: [Double] = []
            while let sample = try reader.next() { rssi.append(sample.rssi) }
            #expect(rssi == [-70, -71.5, -66], "\(variant.name)")
        }
    }

    @Test("a calibration samples file without a final newline keeps its last row")
    func calibrationWithoutFinalNewline() throws {
        for final in [true, false] {
            let path = try Self.write("distance,rssi\n1,-60\n2,-66\n4,-72" + (final ? "\n" : ""))
            defer { try? FileManager.default.removeItem(atPath: path) }
            let samples = try CalibrationSamples.read(path: path)
            #expect(samples.samples.map(\.rssi) == [-60, -66, -72])
        }
    }

    @Test("a row longer than 1 MiB is an error naming its line, also for a file with no line end at all")
    func overlongRow() throws {
        let path = try Self.write("timestamp,rssi\n1,-60\n" + String(repeating: "9", count: (1 << 20) + 10))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect {
            _ = try Self.allRows(path, blockSize: 1 << 16)
        } throws: { error in
            guard let error = error as? FileError, case .malformedRow(_, let line, let detail) = error else {
                return false
            }
            return line == 3 && detail.contains("longer than 1 MiB")
        }
        // A header with no line end (a file of NUL bytes, as /dev/zero gives): line 1, not 2.
        let header = try Self.write(String(repeating: "\u{0}", count: (1 << 20) + 10))
        defer { try? FileManager.default.removeItem(atPath: header) }
        #expect {
            _ = try Self.allRows(header, blockSize: 1 << 16)
        } throws: { error in
            guard let error = error as? FileError, case .malformedRow(_, let line, _) = error else { return false }
            return line == 1
        }
    }

    @Test(
        "with skipBadRows a row longer than 1 MiB is one skipped row and reading goes on, for every line end and block size",
        arguments: ["\n", "\r\n", "\r"])
    func overlongRowSkipped(lineEnd: String) throws {
        let good = "B1E5E0A1-7D2C-4C55-9A51-5D3E2C1A0B0C,1,2,-70"
        let rows = [
            "timestamp,uuid,major,minor,rssi", "1,\(good)",
            "2," + String(repeating: "x", count: (1 << 20) + 3) + ",1,2,-70",
            "3,\(good)", "4,\"" + String(repeating: "q", count: (1 << 20) + 5) + "\",1,2,-70", "5,\(good)"
        ]
        let path = try Self.write(rows.joined(separator: lineEnd) + lineEnd)
        defer { try? FileManager.default.removeItem(atPath: path) }
        // Block sizes that put a block boundary at a row's line end, inside it, and anywhere.
        for blockSize in [1 << 16, (1 << 20) + 20, 7919, 1 << 18] {
            let reader = try RSSISampleReader(csv: CSVReader(path: path, blockSize: blockSize), skipBadRows: true)
            var times: [Double] = []
            while let sample = try reader.next() { times.append(sample.timestamp) }
            #expect(times == [1, 3, 5], "block size \(blockSize)")
            #expect(reader.counts.badRows == 2)
            #expect(reader.counts.firstBadRow?.line == 3)
        }
    }

    @Test(
        "device names with invalid UTF-8 bytes are an error naming the line, never merged; with skipBadRows the rows are skipped"
    )
    func invalidUTF8Device() throws {
        var bytes = Array("timestamp,uuid,major,minor,rssi,device\n".utf8)
        for (t, tail) in [(0, [UInt8](arrayLiteral: 0x70, 0x68, 0xFF)), (1, [0x70, 0x68, 0xFE]), (2, Array("ok".utf8))]
        {
            bytes += Array("\(t),B1E5E0A1-7D2C-4C55-9A51-5D3E2C1A0B0C,1,2,-70,".utf8) + tail + [0x0A]
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("utf8-\(UUID().uuidString).csv").path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let strict = try RSSISampleReader(path: path)
        #expect {
            _ = try strict.next()
        } throws: { error in
            guard let error = error as? FileError, case .invalidValue(_, let line, let column, _, let expected) = error
            else { return false }
            return line == 2 && column == "device" && expected.hasPrefix("valid UTF-8")
        }
        let lenient = try RSSISampleReader(path: path, skipBadRows: true)
        var devices: [String?] = []
        while let sample = try lenient.next() { devices.append(sample.device) }
        #expect(devices == ["ok"])
        #expect(lenient.counts.badRows == 2)
    }

    @Test("a folder given as a CSV file is refused as a directory")
    func directory() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("csv-folder-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: FileError.unreadable(path: folder.path, detail: "it is a directory; give a CSV file")) {
            _ = try CSVReader(path: folder.path)
        }
    }

    @Test("a column named twice in the header is an error naming it")
    func duplicateColumn() throws {
        let path = try Self.write("timestamp,rssi,RSSI\n1,-60,-61\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect {
            _ = try CSVReader(path: path)
        } throws: { error in
            "\(error)".contains("column 'RSSI' appears twice in the header (columns 2 and 3)")
        }
    }
}
