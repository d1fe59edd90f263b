import Foundation
import Testing

@testable import PositioningIO

/// The RSSI CSV's optional `activity` column (`../shared/FORMATS.md`), read from files on disk.
@Suite("RSSI CSV: the activity column")
struct ActivityColumnTests {
    static let uuid = "B1E5E0A1-7D2C-4C55-9A51-5D3E2C1A0B0C"

    static func write(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("activity-\(UUID().uuidString).csv")
            .path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("stationary, walking, unknown and empty cells, with every line end and without the final one")
    func values() throws {
        let rows = [
            "activity,timestamp,uuid,major,minor,rssi",
            "stationary,0,\(Self.uuid),1,2,-70",
            "walking,1,\(Self.uuid),1,2,-71",
            "unknown,2,\(Self.uuid),1,2,-72",
            ",3,\(Self.uuid),1,2,-73",
            " walking ,4,\(Self.uuid),1,2,-74"
        ]
        for lineEnd in ["\n", "\r\n", "\r"] {
            for final in [true, false] {
                let path = try Self.write(rows.joined(separator: lineEnd) + (final ? lineEnd : ""))
                defer { try? FileManager.default.removeItem(atPath: path) }
                let reader = try RSSISampleReader(path: path)
                #expect(reader.hasActivity)
                var hints: [ActivityHint?] = []
                while let sample = try reader.next() { hints.append(sample.activity) }
                #expect(
                    hints == [.stationary, .walking, nil, nil, .walking],
                    "line end \(lineEnd.debugDescription), final \(final)")
            }
        }
    }

    @Test("any other text is an error naming the line and the column; with skipBadRows the row is skipped")
    func badValue() throws {
        let text =
            "timestamp,uuid,major,minor,rssi,activity\n0,\(Self.uuid),1,2,-70,walking\n1,\(Self.uuid),1,2,-70,Running\n"
        let path = try Self.write(text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let strict = try RSSISampleReader(path: path)
        #expect(try strict.next()?.activity == .walking)
        #expect {
            _ = try strict.next()
        } throws: { error in
            guard let error = error as? FileError,
                case .invalidValue(_, let line, let column, let value, let expected) = error
            else { return false }
            return line == 3 && column == "activity" && value == "Running" && expected.contains("stationary, walking")
        }
        let lenient = try RSSISampleReader(path: path, skipBadRows: true)
        var count = 0
        while try lenient.next() != nil { count += 1 }
        #expect(count == 1 && lenient.counts.badRows == 1)
    }

    @Test("a file without the column has no hints")
    func absent() throws {
        let path = try Self.write("timestamp,uuid,major,minor,rssi\n0,\(Self.uuid),1,2,-70")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let reader = try RSSISampleReader(path: path)
        #expect(!reader.hasActivity)
        #expect(try reader.next()?.activity == nil)
    }
}
