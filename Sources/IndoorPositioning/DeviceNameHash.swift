/// The hash of a device name that every per-row lookup uses (``DeviceNameTable``, the worker of
/// a ``ShardedPositioningEngine``): FNV-1a (64 bits) over the name's UTF-8 bytes, its high bits
/// folded down; fixed across runs and machines, unlike `Hasher`. The same from the name and from
/// the bytes it was read from, so that a reader that has the bytes hashes each row once and
/// hands the hash along (``PositioningEngine/push(_:deviceHash:)``).
@usableFromInline
package enum DeviceNameHash {
    @usableFromInline static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    @usableFromInline static let prime: UInt64 = 0x100_0000_01b3

    /// The hash of `name` (nil: the hash of no bytes).
    @inlinable
    package static func of(_ name: String?) -> UInt64 {
        guard let name else { return of(EmptyCollection<UInt8>()) }
        return of(name.utf8)
    }

    /// The hash of the name whose UTF-8 bytes are `bytes[range]`.
    @inlinable
    package static func of(_ bytes: [UInt8], _ range: Range<Int>) -> UInt64 { of(bytes[range]) }

    /// FNV-1a over `bytes`, its high bits folded down.
    @inlinable
    static func of<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt64 {
        var hash = offsetBasis
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* prime }
        return hash ^ (hash >> 29)
    }
}
