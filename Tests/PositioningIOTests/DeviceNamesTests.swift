import Foundation
import IndoorPositioning
import TestSupport
import Testing

@testable import PositioningIO

/// The device names a reader makes from the row's bytes, and the hash it hands along with each
/// sample in place of hashing the name again.
@Suite("Device names read from rows, and their hash")
struct DeviceNamesTests {
    @Test(
        "the hash from the bytes is the hash of the name: ASCII, accented, other scripts, emoji, quoted, padded, empty")
    func hashFromBytes() throws {
        let names = ["phone000001", "Zoë's phone", "電話-7", "📱 2", "a,b", "", "x"]
        var rows = ["timestamp,uuid,major,minor,rssi,device"]
        for (index, name) in names.enumerated() {
            let field = name.contains(",") ? "\"\(name)\"" : name
            rows.append("\(index),F7826DA6-4FA2-4E98-8024-BC5B71E0893E,1,1,-60,\(field)")
        }
        rows.append("9,F7826DA6-4FA2-4E98-8024-BC5B71E0893E,1,1,-60,  padded  ")
        let reader = try RSSISampleReader(csv: CSVReader(text: rows.joined(separator: "\n")))
        var seen: [String?] = []
        while let sample = try reader.next() {
            seen.append(sample.device)
            #expect(reader.deviceHash == DeviceNameHash.of(sample.device), "\(sample.device ?? "nil")")
        }
        #expect(seen == names + ["padded"])
    }

    @Test("more devices than the cache holds, interleaved: every row gets its own name and that name's hash")
    func manyDevices() {
        var names = DeviceNames()
        var random = SeededGenerator(seed: 3)
        for _ in 0..<20_000 {
            let name = "device-\(random.next() % 1_000)"
            let bytes = Array("  \(name),".utf8)
            let read = names.name(bytes, 2..<(bytes.count - 1))
            #expect(read?.name == name)
            #expect(read?.hash == DeviceNameHash.of(name))
        }
        #expect(names.name([0xFF, 0xFE], 0..<2) == nil)
    }

    @Test("bytes spell a field exactly: the same bytes anywhere in the row, not one differing byte or length")
    func spelling() {
        let text = Array("F7826DA6-4FA2-4E98-8024-BC5B71E0893E".utf8)
        let row = Array("0.5,F7826DA6-4FA2-4E98-8024-BC5B71E0893E,1,1,-60".utf8)
        #expect(text.spells(row, 4..<40))
        #expect(!text.spells(row, 3..<39))
        #expect(!text.spells(row, 4..<39))
        for position in text.indices {
            var changed = row
            changed[4 + position] ^= 0x01
            #expect(!text.spells(changed, 4..<40), "byte \(position)")
        }
        #expect([UInt8]().spells(row, 2..<2))
    }

    @Test("a file without devices hands no hash (the engine hashes the missing name itself)")
    func noDevices() throws {
        let text = "timestamp,uuid,major,minor,rssi\n0,F7826DA6-4FA2-4E98-8024-BC5B71E0893E,1,1,-60"
        let reader = try RSSISampleReader(csv: CSVReader(text: text))
        #expect(try reader.next()?.device == nil)
        #expect(reader.deviceHash == nil)
    }
}
