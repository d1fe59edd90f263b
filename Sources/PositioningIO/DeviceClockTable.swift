/// The latest time of each device of a stream, in a hash table made for the order check of
/// ``SampleOrder``: one entry per device name (and one for rows without a device), looked up
/// once per row when rows of many devices interleave.
///
/// Open addressing with linear probing over a power-of-two capacity, at most half full. The hash
/// is FNV-1a (64 bits) over the name's UTF-8 bytes; its low bits pick the first slot, and seven
/// of its high bits are kept per slot as a tag, so that a probe compares names only when the tags
/// match (one in 128 otherwise). A `Dictionary<String?, Double>` seeds and runs `Hasher` for every
/// lookup and every entry it moves when it grows: with a million devices heard once, that was
/// about a tenth of the reading thread's time. Memory: 25 bytes per slot (name, time, tag), about
/// what the dictionary took (24 bytes per bucket, at most three quarters full).
///
/// An entry is addressed by its slot (``slot(for:)``), which stays valid until the next call
/// that inserts or removes (``slot(for:)`` of a new device, ``removeAll(before:)``).
struct DeviceClockTable {
    /// Name and latest time (seconds) per slot, in one array (one allocation, as a dictionary
    /// keeps its buckets). The name is nil for an empty slot, or for the entry of rows without
    /// a device when `tags` says the slot is taken.
    private var entries: [Entry]
    /// Per slot: 0 when empty, else 0x80 | seven high bits of the name's hash.
    private var tags: [UInt8]
    /// Occupied slots.
    private(set) var count = 0

    private static let initialCapacity = 64

    private struct Entry {
        var name: String?
        var time: Double
        static let empty = Entry(name: nil, time: -.infinity)
    }

    init() {
        entries = Array(repeating: .empty, count: Self.initialCapacity)
        tags = Array(repeating: 0, count: Self.initialCapacity)
    }

    /// The slot of `device`, inserted with time −∞ when it has no entry yet.
    mutating func slot(for device: String?) -> Int {
        let hash = Self.hash(device)
        let tag = Self.tag(hash)
        let mask = tags.count - 1
        var index = Int(truncatingIfNeeded: hash) & mask
        while tags[index] != 0 {
            if tags[index] == tag, entries[index].name == device { return index }
            index = (index + 1) & mask
        }
        if 2 * (count + 1) > tags.count {
            grow()
            return insert(Entry(name: device, time: -.infinity), hash: hash)
        }
        entries[index] = Entry(name: device, time: -.infinity)
        tags[index] = tag
        count += 1
        return index
    }

    /// The latest time in `slot`, seconds.
    subscript(slot slot: Int) -> Double {
        get { entries[slot].time }
        set { entries[slot].time = newValue }
    }

    /// The latest time of `device`, or nil when it has no entry (does not insert).
    func time(of device: String?) -> Double? {
        let hash = Self.hash(device)
        let tag = Self.tag(hash)
        let mask = tags.count - 1
        var index = Int(truncatingIfNeeded: hash) & mask
        while tags[index] != 0 {
            if tags[index] == tag, entries[index].name == device { return entries[index].time }
            index = (index + 1) & mask
        }
        return nil
    }

    /// Removes every device whose latest time is before `cutoff` (the table is rebuilt from the
    /// others, at the capacity they need).
    mutating func removeAll(before cutoff: Double) {
        var kept: [Entry] = []
        for index in tags.indices where tags[index] != 0 && entries[index].time >= cutoff {
            kept.append(entries[index])
        }
        var capacity = Self.initialCapacity
        while capacity < 2 * kept.count { capacity *= 2 }
        entries = Array(repeating: .empty, count: capacity)
        tags = Array(repeating: 0, count: capacity)
        count = 0
        for entry in kept { _ = insert(entry, hash: Self.hash(entry.name)) }
    }

    /// Doubles the capacity and moves every entry (hashing its name again: FNV-1a is cheap).
    private mutating func grow() {
        let oldEntries = entries
        let oldTags = tags
        let capacity = 2 * tags.count
        entries = Array(repeating: .empty, count: capacity)
        tags = Array(repeating: 0, count: capacity)
        count = 0
        for index in oldTags.indices where oldTags[index] != 0 {
            _ = insert(oldEntries[index], hash: Self.hash(oldEntries[index].name))
        }
    }

    /// Puts an entry known to be absent in the first free slot of its probe sequence.
    private mutating func insert(_ entry: Entry, hash: UInt64) -> Int {
        let mask = tags.count - 1
        var index = Int(truncatingIfNeeded: hash) & mask
        while tags[index] != 0 { index = (index + 1) & mask }
        entries[index] = entry
        tags[index] = Self.tag(hash)
        count += 1
        return index
    }

    /// FNV-1a over the name's UTF-8 bytes (nil: the hash of no bytes, which no name has but "").
    private static func hash(_ device: String?) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        if let device { for byte in device.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 } }
        // Fold the high bits down so that the slot (the low bits) depends on all of them.
        return hash ^ (hash >> 29)
    }

    /// The slot tag of `hash`: its seven top bits, with the high bit set (never 0).
    private static func tag(_ hash: UInt64) -> UInt8 { UInt8(truncatingIfNeeded: hash >> 57) | 0x80 }
}
