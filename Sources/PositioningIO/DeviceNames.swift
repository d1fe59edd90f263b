/// Device names from a CSV field's bytes, reusing the `String` made for the same bytes before
/// (a file's rows name the same devices over and over), so that a row of a known device builds
/// no string. A small direct-mapped cache (by a hash of the bytes) bounds the memory whatever
/// the number of devices; a name that was pushed out is simply built again.
struct DeviceNames {
    private static let slots = 256
    private var cache: [String?] = Array(repeating: nil, count: DeviceNames.slots)

    /// The name spelled by `bytes[range]`, or nil when they are not valid UTF-8.
    mutating func name(_ bytes: [UInt8], _ range: Range<Int>) -> String? {
        // FNV-1a over the bytes picks the slot.
        var hash: UInt32 = 2_166_136_261
        for index in range { hash = (hash ^ UInt32(bytes[index])) &* 16_777_619 }
        let slot = Int(hash % UInt32(Self.slots))
        if let known = cache[slot], Self.spells(known, bytes, range) { return known }
        guard let made = String(validating: bytes[range], as: UTF8.self) else { return nil }
        cache[slot] = made
        return made
    }

    private static func spells(_ name: String, _ bytes: [UInt8], _ range: Range<Int>) -> Bool {
        name.utf8.count == range.count && name.utf8.elementsEqual(bytes[range])
    }
}
