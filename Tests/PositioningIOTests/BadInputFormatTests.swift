import Foundation
import TestSupport
import Testing

@testable import PositioningIO

/// The remaining rows of Docs/Reference/BadInput.md about file contents: truncated, binary and very long
/// input, and calibration JSON with duplicate keys, deep nesting and numbers out of range.
@Suite("Bad input: file contents")
struct BadInputFormatTests {
    static let header = "timestamp,uuid,major,minor,rssi\n"
    static let row = "0,B1E5E0A1-7D2C-4C55-9A51-5D3E2C1A0B0C,1,2,-70\n"

    static func readAll(
        _ text: String, skipBadRows: Bool = false
    ) throws(FileError) -> (samples: [RSSISample], counts: RSSISampleReader.Counts) {
        let reader = try RSSISampleReader(csv: CSVReader(text: text), skipBadRows: skipBadRows)
        var samples: [RSSISample] = []
        while let sample = try reader.next() { samples.append(sample) }
        return (samples, reader.counts)
    }

    @Test("a file cut inside its last row: an error naming that line, or one bad row skipped")
    func truncated() throws {
        let cut = Self.header + Self.row + Self.row + "2,B1E5E0A1-7D2C-4C55-9A51-5D3E2C1A0B0C,1"
        #expect(
            throws: FileError.malformedRow(path: "<input>", line: 4, detail: "has 3 field(s), column 'rssi' needs 5")
        ) {
            try Self.readAll(cut)
        }
        let skipped = try Self.readAll(cut, skipBadRows: true)
        #expect(skipped.samples.count == 2)
        #expect(skipped.counts.badRows == 1)
        // Cut inside the header: the required columns are missing.
        #expect(
            throws: FileError.missingColumn(
                path: "<input>", column: "rssi", header: ["timestamp", "uuid", "major", "minor", "rs"])
        ) {
            try Self.readAll("timestamp,uuid,major,minor,rs")
        }
    }

    @Test(
        "binary files (seeded random bytes, NUL bytes, invalid UTF-8) are typed errors or skipped rows, never a crash")
    func binary() throws {
        var rng = SeededGenerator(seed: 99)
        for trial in 0..<200 {
            let count = Int.random(in: 0...3000, using: &rng)
            let bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &rng) }
            // As a whole file, and as the body after a good header.
            for prefix in ["", Self.header] {
                let text = prefix + String(decoding: bytes, as: UTF8.self)
                do {
                    let read = try Self.readAll(text, skipBadRows: true)
                    #expect(
                        read.samples.allSatisfy { RSSISample.isUsableTimestamp($0.timestamp) && $0.rssi.isFinite },
                        "trial \(trial)")
                } catch {
                    #expect(error.description.count < 400, "trial \(trial): \(error.description.prefix(100))")
                }
            }
            // The JSON readers.
            #expect(throws: (any Error).self) { try FloorPlan(jsonData: Data(bytes)) }
            #expect(throws: CalibrationFileError.self) { try CalibrationFile(data: Data(bytes)) }
        }
    }

    @Test("a 4 MB line is one error naming the line, with the value shortened in the message")
    func veryLongLine() throws {
        let long = String(repeating: "9", count: 4 << 20)
        let text = Self.header + Self.row + "\(long),B1E5E0A1-7D2C-4C55-9A51-5D3E2C1A0B0C,1,2,-70\n" + Self.row
        do {
            _ = try Self.readAll(text)
            Issue.record("a 4-MB timestamp was accepted")
        } catch {
            #expect(error.line == 3)
            #expect(error.description.count < 400)
        }
        let skipped = try Self.readAll(text, skipBadRows: true)
        #expect(skipped.samples.count == 2 && skipped.counts.badRows == 1)
        // A long but valid device name is kept whole.
        let device = String(repeating: "d", count: 100_000)
        let named = try Self.readAll(
            "timestamp,uuid,major,minor,rssi,device\n0,B1E5E0A1-7D2C-4C55-9A51-5D3E2C1A0B0C,1,2,-70,\(device)\n")
        #expect(named.samples.first?.device == device)
    }

    @Test("calibration JSON: duplicate keys, deep nesting and out-of-range numbers are typed errors")
    func calibrationJSON() {
        let all = #""all": {"measuredPower": -60, "pathLossExponent": 2, "sigma": 4, "count": 1}"#
        let cases = [
            "{\(all), \(all)}",  // duplicate key
            String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000),  // deep nesting
            #"{"all": {"measuredPower": -1e400, "pathLossExponent": 2, "sigma": 4, "count": 1}}"#,
            #"{"all": {"measuredPower": -60, "pathLossExponent": 2, "sigma": 4, "count": 1e30}}"#,
            #"{"all": {"measuredPower": -60, "pathLossExponent": 2, "sigma": 1e300, "count": 1}}"#,
            #"{"all": [1, 2, 3]}"#,
            #"{"all": {"measuredPower": -60, "pathLossExponent": 2, "sigma": 4, "count": 1}, "beacons": {"uuid": 1}}"#
        ]
        for json in cases {
            #expect(throws: CalibrationFileError.self, "\(json.prefix(80))") {
                try CalibrationFile(data: Data(json.utf8))
            }
        }
    }

    @Test("a UTF-8 byte-order mark before the header is ignored; CRLF line ends read the same as LF")
    func byteOrderMarkAndCRLF() throws {
        let plain = try Self.readAll(Self.header + Self.row)
        let marked = try Self.readAll("\u{FEFF}" + Self.header + Self.row)
        let crlf = try Self.readAll(
            "\u{FEFF}" + (Self.header + Self.row + Self.row).replacingOccurrences(of: "\n", with: "\r\n"))
        #expect(marked.samples == plain.samples)
        #expect(plain.samples.count == 1)
        #expect(crlf.samples == plain.samples + plain.samples)
    }
}
