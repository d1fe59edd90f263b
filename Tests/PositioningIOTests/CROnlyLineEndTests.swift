import Foundation
import Testing

@testable import PositioningIO

/// Files whose lines end with a carriage return alone (classic Mac OS, some exports): either
/// read correctly, or refused with one short line that says what is wrong.
@Suite("CR-only line ends")
struct CROnlyLineEndTests {
    static let text =
        "timestamp,uuid,major,minor,rssi\r0,B1E5E0A1-7D2C-4C55-9A51-5D3E2C1A0B0C,1,2,-70\r"
        + "1,B1E5E0A1-7D2C-4C55-9A51-5D3E2C1A0B0C,1,3,-71\r"

    @Test("an RSSI file with CR-only line ends reads both samples, or says to convert the line ends in one short line")
    func rssiFile() {
        do {
            let reader = try RSSISampleReader(csv: CSVReader(text: Self.text))
            var samples: [RSSISample] = []
            while let sample = try reader.next() { samples.append(sample) }
            #expect(samples.map(\.timestamp) == [0, 1])
            #expect(samples.map(\.rssi) == [-70, -71])
        } catch {
            let message = error.description
            #expect(message.contains("CR only"))
            #expect(message.count < 300)
            #expect(!message.contains("\n") && !message.contains("\r"))
        }
    }

    @Test("a long header of a file that is not CSV is shortened in the message")
    func longHeader() {
        let header = (0..<50).map { "c\($0)" }.joined(separator: ",") + "," + String(repeating: "x", count: 500)
        #expect(throws: FileError.self) { try RSSISampleReader(csv: CSVReader(text: header + "\n")) }
        let message = FileError.missingColumn(
            path: "f.csv", column: "timestamp", header: header.components(separatedBy: ",")
        ).description
        #expect(message.count < 300)
        #expect(message.hasSuffix("(51 columns))"))
    }
}
