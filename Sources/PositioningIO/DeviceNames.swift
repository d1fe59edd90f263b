import IndoorPositioning

/// Device names from a CSV field's bytes, reusing the `String` made for the same bytes before
/// (a file's rows name the same devices over and over), so that a row of a known device builds
/// no string, with the name's ``DeviceNameHash`` computed from the bytes (which every lookup of
/// the device then uses instead of hashing the name again). A small direct-mapped cache (by that
/// hash) bounds the memory whatever the number of devices; a name that was pushed out is simply
/// built again.
struct DeviceNames {
    private static let slots = 256
    private var cache: [(name: String, bytes: [UInt8], hash: UInt64)?] = Array(repeating: nil, count: DeviceNames.slots)

    /// The name spelled by `bytes[range]` and its hash, or nil when they are not valid UTF-8.
    mutating func name(_ bytes: [UInt8], _ range: Range<Int>) -> (name: String, hash: UInt64)? {
        let hash = DeviceNameHash.of(bytes, range)
        let slot = Int(truncatingIfNeeded: hash) & (Self.slots - 1)
        if let known = cache[slot], known.hash == hash, known.bytes.spells(bytes, range) {
            return (known.name, hash)
        }
        guard let made = String(validating: bytes[range], as: UTF8.self) else { return nil }
        cache[slot] = (made, Array(bytes[range]), hash)
        return (made, hash)
    }
}
