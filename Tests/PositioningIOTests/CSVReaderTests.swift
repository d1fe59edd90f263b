import Foundation
import Testing

@testable import PositioningIO

@Suite("CSV reader")
struct CSVReaderTests {
    @Test("columns are found by name in any order, extra columns ignored, quotes honoured")
    func columnsByName() throws {
        let reader = try CSVReader(text: "Extra, rssi ,timestamp\n\"a,b\",-60,1.5\nx,-61.5,2\n")
        #expect(reader.header == ["Extra", "rssi", "timestamp"])
        let rssi = try reader.requireColumn("RSSI")
        let time = try reader.requireColumn("timestamp")
        var rows: [(Double, Double)] = []
        var first: String?
        while let row = try reader.next() {
            if first == nil { first = row[0] }
            rows.append((try reader.double(row, time), try reader.double(row, rssi)))
        }
        #expect(first == "a,b")
        #expect(rows.count == 2)
        #expect(rows[1] == (2, -61.5))
    }

    @Test("blank lines and CRLF line ends are tolerated; line numbers count from the header")
    func lineNumbers() throws {
        let reader = try CSVReader(text: "a,b\r\n1,2\r\n\r\n3,x\r\n")
        let b = try reader.requireColumn("b")
        _ = try reader.next()
        let row = try #require(try reader.next())
        #expect(try reader.double(row, 0) == 3)
        #expect(reader.line == 4)
        #expect(
            throws: FileError.invalidValue(
                path: "<input>", line: 4, column: "b", value: "x",
                expected: "a finite number")
        ) {
            _ = try reader.double(row, b)
        }
    }

    @Test("a missing column names the column and the header")
    func missingColumn() throws {
        let reader = try CSVReader(text: "time,rssi\n1,2\n")
        #expect(throws: FileError.missingColumn(path: "<input>", column: "timestamp", header: ["time", "rssi"])) {
            _ = try reader.requireColumn("timestamp")
        }
    }

    @Test("empty input, missing file and unterminated quotes are errors, not crashes")
    func badFiles() {
        #expect(throws: FileError.empty(path: "<input>")) { _ = try CSVReader(text: "") }
        #expect(throws: FileError.self) { _ = try CSVReader(path: "/nonexistent/file.csv") }
        #expect(throws: FileError.malformedRow(path: "<input>", line: 2, detail: "a quoted field is not closed")) {
            let reader = try CSVReader(text: "a\n\"open\n")
            _ = try reader.next()
        }
    }

    @Test("a file larger than one read chunk streams completely")
    func largeFile() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("csv-\(UUID()).csv")
        defer { try? FileManager.default.removeItem(at: url) }
        var text = "i,value\n"
        for i in 0..<20_000 { text += "\(i),\(Double(i) * 0.5)\n" }
        try text.write(to: url, atomically: true, encoding: .utf8)
        let reader = try CSVReader(path: url.path)
        var count = 0
        var sum = 0.0
        while let row = try reader.next() {
            count += 1
            sum += try reader.double(row, 1)
        }
        #expect(count == 20_000)
        #expect(sum == 0.5 * Double(19_999 * 20_000 / 2))
        #expect(reader.line == 20_001)
    }
}
