import Foundation
import IndoorPositioning

/// Device names from a CSV field's bytes, reusing the `String` made for the same bytes before
/// (a file's rows name the same devices over and over), so that a row of a known device builds
/// no string, with the name's ``DeviceNameHash`` computed from the bytes (which every lookup of
/// the device then uses instead of hashing the name again). A small direct-mapped cache (by that
/// hash) bounds the memory whatever the number of devices; a name that was pushed out is simply
/// built again.
///
/// A name is taken in Unicode normalization form C (composed): `café` written with a combining
/// accent (NFD, as macOS file names are) and with `é` (NFC) are one device, written in NFC.
/// (`String` compares them equal, while the hash is of bytes: before, they were one device or
/// two depending on where in the engine they met, and on `--jobs`.) ASCII names are as read.
struct DeviceNames {
    private static let slots = 256
    private var cache: [(name: String, bytes: [UInt8], byteHash: UInt64, hash: UInt64)?] = Array(
        repeating: nil, count: DeviceNames.slots)

    /// The name spelled by `bytes[range]`, in NFC, and its hash, or nil when they are not valid
    /// UTF-8.
    mutating func name(_ bytes: [UInt8], _ range: Range<Int>) -> (name: String, hash: UInt64)? {
        let byteHash = DeviceNameHash.of(bytes, range)
        let slot = Int(truncatingIfNeeded: byteHash) & (Self.slots - 1)
        if let known = cache[slot], known.byteHash == byteHash, known.bytes.spells(bytes, range) {
            return (known.name, known.hash)
        }
        guard var made = String(validating: bytes[range], as: UTF8.self) else { return nil }
        var hash = byteHash
        if bytes[range].contains(where: { $0 >= 0x80 }) {
            let composed = made.precomposedStringWithCanonicalMapping
            if !composed.utf8.elementsEqual(made.utf8) {
                made = composed
                hash = DeviceNameHash.of(composed)
            }
        }
        cache[slot] = (made, Array(bytes[range]), byteHash, hash)
        return (made, hash)
    }
}
