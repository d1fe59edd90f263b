import Foundation

/// Beacon UUIDs by the exact bytes of their text in a CSV field, so that a file that names the
/// same few beacons a million times parses each UUID text once. Lookups compare bytes (the
/// last hit first) and allocate nothing; at most ``capacity`` texts are kept, later new texts
/// are parsed each time.
struct IdentityTable {
    static let capacity = 1024

    private var texts: [[UInt8]] = []
    private var uuids: [UUID] = []
    private var last = 0

    /// The UUID spelled by `bytes[range]` (any case, as `UUID(uuidString:)` accepts), or nil.
    mutating func uuid(_ bytes: [UInt8], _ range: Range<Int>) -> UUID? {
        if last < texts.count, texts[last].spells(bytes, range) { return uuids[last] }
        for index in texts.indices where texts[index].spells(bytes, range) {
            last = index
            return uuids[index]
        }
        guard let parsed = UUID(uuidString: String(decoding: bytes[range], as: UTF8.self)) else { return nil }
        if texts.count < Self.capacity {
            texts.append(Array(bytes[range]))
            uuids.append(parsed)
            last = texts.count - 1
        }
        return parsed
    }
}
