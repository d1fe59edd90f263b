import Foundation
import TestSupport
import Testing

@testable import PositioningIO

@Suite("CSV reader at the byte level")
struct ByteReaderTests {
    static let uuid = "F7826DA6-4FA2-4E98-8024-BC5B71E0893E"

    @Test("LF, CRLF and lone-CR line ends and a UTF-8 byte order mark read the same samples")
    func lineEnds() throws {
        let rows = ["timestamp,uuid,major,minor,rssi", "0.5,\(Self.uuid),1,7,-67", "", "1.25,\(Self.uuid),1,8,-71.5"]
        var results: [[RSSISample]] = []
        for (separator, prefix) in [("\n", ""), ("\r\n", ""), ("\r", ""), ("\r", "\u{FEFF}"), ("\r\n", "\u{FEFF}")] {
            let reader = try RSSISampleReader(
                csv: CSVReader(text: prefix + rows.joined(separator: separator) + separator))
            var samples: [RSSISample] = []
            while let sample = try reader.next() { samples.append(sample) }
            results.append(samples)
        }
        #expect(results[0].count == 2)
        #expect(results[0][1].timestamp == 1.25 && results[0][1].rssi == -71.5)
        for result in results.dropFirst() { #expect(result == results[0]) }
    }

    @Test("line numbers in errors count lone-CR lines and lines inside quoted fields")
    func lineNumbersWithCR() throws {
        let reader = try RSSISampleReader(
            csv: CSVReader(
                text:
                    "timestamp,uuid,major,minor,rssi,device\r0,\(Self.uuid),1,1,-60,\"two\rlines\"\r1,\(Self.uuid),1,1,loud,x\r"
            ))
        let first = try #require(try reader.next())
        #expect(first.device == "two\rlines")
        #expect(
            throws: FileError.invalidValue(
                path: "<input>", line: 4, column: "rssi", value: "loud",
                expected: "a finite number")
        ) { _ = try reader.next() }
    }

    @Test("quoted fields with escaped quotes, CRLF and a BOM on a file read across block boundaries")
    func quotedAcrossBlocks() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("bytes-\(UUID()).csv")
        defer { try? FileManager.default.removeItem(at: url) }
        var text = "\u{FEFF}timestamp,uuid,major,minor,rssi,device\r\n"
        let count = 12_000
        for i in 0..<count {
            let device = i % 3 == 0 ? "\"pho,ne \"\"\(i % 7)\"\"\"" : "phone\(i % 5)"
            text += "\(Double(i) * 0.25),\(Self.uuid),1,\(i % 9),-\(50 + i % 40).5, \(device) \r\n"
        }
        try text.write(to: url, atomically: true, encoding: .utf8)
        let reader = try RSSISampleReader(path: url.path)
        var samples: [RSSISample] = []
        while let sample = try reader.next() { samples.append(sample) }
        #expect(samples.count == count)
        for (i, sample) in samples.enumerated() {
            #expect(sample.timestamp == Double(i) * 0.25)
            #expect(sample.rssi == -Double(50 + i % 40) - 0.5)
            #expect(sample.identity.minor == UInt16(i % 9))
            #expect(sample.device == (i % 3 == 0 ? "pho,ne \"\(i % 7)\"" : "phone\(i % 5)"))
        }
    }

    @Test("numbers parse from bytes to exactly the double and integer the standard library gives")
    func numbersMatchStandardLibrary() throws {
        var random = SeededGenerator(seed: 10)
        var texts = [
            "0", "-0", "+1", "1.", ".5", "5e", "1e22", "1e23", "123456789012345678", "9007199254740993",
            "0.1", "-59.25", "1E-5", "2.5e+3", "0x1p3", "-0x46", "0X10", "inf", "-infinity", "nan", "1_0", "--1",
            "1.2.3",
            "00012.500", "4.9e-324", "1.7976931348623157e308", "1e400", "", "-", "+", "e5", " 1"
        ]
        for _ in 0..<20_000 {
            let digits = Int.random(in: 1...19, using: &random)
            var text = Bool.random(using: &random) ? "-" : ""
            for k in 0..<digits {
                if k == Int.random(in: 0..<digits, using: &random) && !text.contains(".") { text += "." }
                text += String(Int.random(in: 0...9, using: &random))
            }
            if text.hasSuffix(".") { text += "0" }
            if Int.random(in: 0..<4, using: &random) == 0 { text += "e\(Int.random(in: -30...30, using: &random))" }
            texts.append(text)
        }
        for text in texts {
            let bytes = Array(text.utf8)
            let parsed = DecimalText.double(bytes, 0..<bytes.count)
            // Hexadecimal, which `Double(String)` reads, is refused (issue 47 B: `-0x46` was −70).
            let expected = text.lowercased().contains("0x") ? nil : Double(text)
            #expect(
                parsed?.bitPattern == expected?.bitPattern || (parsed?.isNaN == true && expected?.isNaN == true),
                "\(text): \(String(describing: parsed)) vs \(String(describing: expected))")
            #expect(DecimalText.integer(bytes, 0..<bytes.count) == Int(text), "\(text)")
        }
    }

    @Test("a bad uuid, major or minor names its line, column and value as before")
    func identityErrors() throws {
        for (row, column, value, expected) in [
            ("0,not-a-uuid,1,1,-60", "uuid", "not-a-uuid", "a UUID like F7826DA6-4FA2-4E98-8024-BC5B71E0893E"),
            ("0,\(Self.uuid),x,1,-60", "major", "x", "an integer in 0...65535"),
            ("0,\(Self.uuid),1,-1,-60", "minor", "-1", "an integer in 0...65535"),
            ("0,\(Self.uuid),1", "rssi", "", "")
        ] {
            let reader = try RSSISampleReader(csv: CSVReader(text: "timestamp,uuid,major,minor,rssi\n\(row)\n"))
            if expected.isEmpty {
                #expect(
                    throws: FileError.malformedRow(
                        path: "<input>", line: 2,
                        detail: "has 3 field(s), column 'rssi' needs 5")
                ) { _ = try reader.next() }
            } else {
                #expect(
                    throws: FileError.invalidValue(
                        path: "<input>", line: 2, column: column, value: value,
                        expected: expected)
                ) { _ = try reader.next() }
            }
        }
    }
}
