/// A hash table from device names (nil: rows without a device) to values, made for the lookups
/// `locate` does once per row: the reader's order check (each device's latest time) and each
/// engine's table of devices (their slots, and the devices asleep).
///
/// Open addressing with linear probing over a power-of-two capacity, at most half full. The hash
/// is FNV-1a (64 bits) over the name's UTF-8 bytes; its low bits pick the first slot, and seven of
/// its high bits are kept per slot as a tag, so that a probe compares names only when the tags
/// match (one in 128 otherwise). Removal shifts the entries that follow back into the gap
/// (Knuth, *The Art of Computer Programming* vol. 3, §6.4, Algorithm R), so there are no
/// tombstones. A `Dictionary<String?, Value>` seeds and runs `Hasher` (SipHash) for every lookup
/// and every entry it moves when it grows: with a million phones heard once that was about a
/// tenth of the reading thread's time, and as much again in the engines.
///
/// Memory: one array of (name, value) entries, as a dictionary keeps its buckets, and one byte of
/// tag per slot. An entry is addressed by its slot, valid until the next insertion or removal.
@usableFromInline
package struct DeviceNameTable<Value> {
    @usableFromInline
    struct Entry {
        @usableFromInline var name: String?
        @usableFromInline var value: Value

        @inlinable
        init(name: String?, value: Value) {
            self.name = name
            self.value = value
        }
    }

    /// Name and value per slot (an empty slot holds nil and `filler`).
    @usableFromInline var entries: [Entry]
    /// The value of empty slots (never read as a device's).
    @usableFromInline let filler: Value
    /// Per slot: 0 when empty, else 0x80 | seven high bits of the name's hash.
    @usableFromInline var tags: [UInt8]
    /// Occupied slots.
    @usableFromInline package private(set) var count = 0

    @usableFromInline static var initialCapacity: Int { 16 }

    /// An empty table whose empty slots hold `filler` (any value: it keeps the entries plain
    /// values, without an optional's extra byte and padding).
    @inlinable
    package init(filler: Value) {
        self.filler = filler
        entries = Array(repeating: Entry(name: nil, value: filler), count: Self.initialCapacity)
        tags = Array(repeating: 0, count: Self.initialCapacity)
    }

    /// Whether the table holds nothing.
    @inlinable
    package var isEmpty: Bool { count == 0 }

    /// The slot of `name`, or nil when it has no entry.
    @inlinable
    package func slot(of name: String?) -> Int? { slot(of: name, hash: Self.hash(name)) }

    /// The slot of `name`, whose ``DeviceNameHash`` is `hash`, or nil when it has no entry.
    @inlinable
    package func slot(of name: String?, hash: UInt64) -> Int? {
        let tag = Self.tag(hash)
        let mask = tags.count - 1
        var index = Int(truncatingIfNeeded: hash) & mask
        while tags[index] != 0 {
            if tags[index] == tag, entries[index].name == name { return index }
            index = (index + 1) & mask
        }
        return nil
    }

    /// The slot of `name`, inserted with `make()` when it has no entry; `inserted` says which.
    @inlinable
    package mutating func slot(of name: String?, inserting make: () -> Value) -> (slot: Int, inserted: Bool) {
        slot(of: name, hash: Self.hash(name), inserting: make)
    }

    /// ``slot(of:inserting:)`` for a name whose ``DeviceNameHash`` is `hash`.
    @inlinable
    package mutating func slot(
        of name: String?, hash: UInt64, inserting make: () -> Value
    ) -> (slot: Int, inserted: Bool) {
        let tag = Self.tag(hash)
        let mask = tags.count - 1
        var index = Int(truncatingIfNeeded: hash) & mask
        while tags[index] != 0 {
            if tags[index] == tag, entries[index].name == name { return (index, false) }
            index = (index + 1) & mask
        }
        if 2 * (count + 1) > tags.count {
            grow()
            return (place(Entry(name: name, value: make()), hash: hash), true)
        }
        entries[index] = Entry(name: name, value: make())
        tags[index] = tag
        count += 1
        return (index, true)
    }

    /// Sets the value of `name`, inserting it when absent; returns its slot.
    @inlinable
    @discardableResult
    package mutating func set(_ value: Value, for name: String?) -> Int {
        set(value, for: name, hash: Self.hash(name))
    }

    /// ``set(_:for:)`` for a name whose ``DeviceNameHash`` is `hash`.
    @inlinable
    @discardableResult
    package mutating func set(_ value: Value, for name: String?, hash: UInt64) -> Int {
        let (slot, inserted) = slot(of: name, hash: hash, inserting: { value })
        if !inserted { entries[slot].value = value }
        return slot
    }

    /// The value in an occupied `slot`.
    @inlinable
    package subscript(slot slot: Int) -> Value {
        get { entries[slot].value }
        set { entries[slot].value = newValue }
    }

    /// Changes the value in an occupied `slot` in place (no copy of what it holds).
    @inlinable
    package mutating func update<Result>(slot: Int, _ body: (inout Value) -> Result) -> Result {
        body(&entries[slot].value)
    }

    /// The name in an occupied `slot`.
    @inlinable
    package func name(at slot: Int) -> String? { entries[slot].name }

    /// The occupied slots, in table order.
    @inlinable
    package var occupiedSlots: [Int] { tags.indices.filter { tags[$0] != 0 } }

    /// Removes the entry in an occupied `slot` and returns its value; the entries after it in
    /// its probe run move back (their slots change).
    @inlinable
    @discardableResult
    package mutating func remove(slot: Int) -> Value {
        let value = entries[slot].value
        let mask = tags.count - 1
        var gap = slot
        var index = slot
        while true {
            index = (index + 1) & mask
            if tags[index] == 0 { break }
            // The entry at `index` may fill the gap unless its home lies cyclically in (gap, index].
            let home = Int(truncatingIfNeeded: Self.hash(entries[index].name)) & mask
            let homeAfterGap = gap <= index ? (gap < home && home <= index) : (gap < home || home <= index)
            if homeAfterGap { continue }
            entries[gap] = entries[index]
            tags[gap] = tags[index]
            gap = index
        }
        entries[gap] = Entry(name: nil, value: filler)
        tags[gap] = 0
        count -= 1
        return value
    }

    /// Keeps only the entries for which `keep` is true (the table is rebuilt at the capacity
    /// they need).
    @inlinable
    package mutating func filter(_ keep: (Value) -> Bool) {
        // Dropped entries are cleared where they stand; the rebuild below moves the others.
        for index in tags.indices where tags[index] != 0 && !keep(entries[index].value) {
            entries[index] = Entry(name: nil, value: filler)
            tags[index] = 0
            count -= 1
        }
        var size = Self.initialCapacity
        while size < 2 * count { size *= 2 }
        rebuild(capacity: size)
    }

    /// Empties the table (and gives its memory back).
    @inlinable
    package mutating func removeAll() { self = Self(filler: filler) }

    /// Doubles the capacity.
    @inlinable
    mutating func grow() { rebuild(capacity: 2 * tags.count) }

    /// Moves every entry (not copying it) to its place in new arrays of `capacity` slots (a
    /// power of two, at least twice the entries).
    @inlinable
    mutating func rebuild(capacity: Int) {
        let oldTags = tags
        var old = entries
        entries = Array(repeating: Entry(name: nil, value: filler), count: capacity)
        tags = Array(repeating: 0, count: capacity)
        count = 0
        for index in oldTags.indices where oldTags[index] != 0 {
            var entry = Entry(name: nil, value: filler)
            swap(&entry, &old[index])
            let hash = Self.hash(entry.name)
            place(entry, hash: hash)
        }
    }

    /// Puts an entry known to be absent in the first free slot of its probe run.
    @inlinable
    @discardableResult
    mutating func place(_ entry: consuming Entry, hash: UInt64) -> Int {
        let mask = tags.count - 1
        var index = Int(truncatingIfNeeded: hash) & mask
        while tags[index] != 0 { index = (index + 1) & mask }
        entries[index] = entry
        tags[index] = Self.tag(hash)
        count += 1
        return index
    }

    /// The name's ``DeviceNameHash``.
    @inlinable
    static func hash(_ name: String?) -> UInt64 { DeviceNameHash.of(name) }

    /// The slot tag of `hash`: its seven top bits with the high bit set (never 0).
    @inlinable
    static func tag(_ hash: UInt64) -> UInt8 { UInt8(truncatingIfNeeded: hash >> 57) | 0x80 }
}

extension DeviceNameTable: Sendable where Value: Sendable {}
extension DeviceNameTable.Entry: Sendable where Value: Sendable {}
