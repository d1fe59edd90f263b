import TestSupport
import Testing

@testable import IndoorPositioning

/// The hash table of device names used once per row by `locate`, against `Dictionary` under the
/// same operations.
@Suite("Device name table: lookups, insertion, removal, against a dictionary")
struct DeviceNameTableTests {
    /// Whether `table` holds exactly `reference`.
    static func same(_ table: DeviceNameTable<Double>, _ reference: [String?: Double], names: [String?]) -> Bool {
        guard table.count == reference.count, table.occupiedSlots.count == reference.count else { return false }
        return names.allSatisfy { name in table.slot(of: name).map { table[slot: $0] } == reference[name] }
    }

    @Test("inserts, updates, removals, filtering and growth give a dictionary's entries", arguments: [1, 2, 3])
    func matchesDictionary(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var table = DeviceNameTable<Double>(filler: -.infinity)
        var reference: [String?: Double] = [:]
        // Names short and long (over 15 bytes, stored out of line), a nil device and "", 3,000 in all.
        let names: [String?] =
            [nil, ""]
            + (0..<2_998).map { index in index % 3 == 0 ? "phone-\(index)" : "a-much-longer-device-name-\(index)-é" }
        var removals = 0
        for step in 0..<60_000 {
            let name = names[Int(random.next() % UInt64(names.count))]
            let value = Double(step)
            switch random.next() % 8 {
            case 0, 1:
                // Removal (of an entry when there is one).
                if let slot = table.slot(of: name) {
                    #expect(table.remove(slot: slot) == reference.removeValue(forKey: name))
                    removals += 1
                } else {
                    #expect(reference[name] == nil)
                }
            case 2:
                let (slot, inserted) = table.slot(of: name, inserting: { value })
                #expect(inserted == (reference[name] == nil))
                if inserted { reference[name] = value }
                #expect(table[slot: slot] == reference[name])
            case 3:
                table.set(value, for: name)
                reference[name] = value
            default:
                let (slot, _) = table.slot(of: name, inserting: { -.infinity })
                if reference[name] == nil { reference[name] = -.infinity }
                table.update(slot: slot) { $0 = max($0, value) }
                reference[name] = max(reference[name]!, value)
            }
            if step % 15_000 == 14_999 {
                let cutoff = value - 20_000
                table.filter { $0 >= cutoff }
                reference = reference.filter { $0.value >= cutoff }
                #expect(Self.same(table, reference, names: names), "after filtering at step \(step)")
            }
        }
        #expect(removals > 5_000)
        #expect(Self.same(table, reference, names: names))
        for slot in table.occupiedSlots { #expect(reference[table.name(at: slot)] == table[slot: slot]) }
        table.removeAll()
        #expect(table.isEmpty && table.slot(of: names[5]) == nil)
    }

    @Test("removing from long probe runs (names colliding in a small table) keeps every other entry reachable")
    func removalInCrowdedRuns() {
        // 10 names in a 16-slot table, removed in every order of a few seeds: after each
        // removal every remaining name is found with its value.
        let names = (0..<7).map { "d\($0)" } + ["", "x", "yy"]
        for seed in 0..<50 {
            var random = SeededGenerator(seed: UInt64(seed))
            var table = DeviceNameTable<Int>(filler: -1)
            for (index, name) in names.enumerated() { table.set(index, for: name) }
            var left = Array(names.enumerated())
            while !left.isEmpty {
                let (_, name) = left.remove(at: Int(random.next() % UInt64(left.count)))
                let slot = table.slot(of: name)
                #expect(slot != nil)
                if let slot { table.remove(slot: slot) }
                #expect(table.slot(of: name) == nil)
                for (index, other) in left { #expect(table.slot(of: other).map { table[slot: $0] } == index) }
            }
            #expect(table.isEmpty)
        }
    }

    @Test("names that differ only past the first bytes, or by one byte, keep separate entries")
    func similarNames() {
        var table = DeviceNameTable<Double>(filler: -.infinity)
        let names =
            (0..<1_000).map { "device-\(String(repeating: "x", count: $0 % 40))-\($0)" } + ["", "a", "b", "ab", "ba"]
        for (index, name) in names.enumerated() { table.set(Double(index), for: name) }
        #expect(table.count == names.count)
        for (index, name) in names.enumerated() {
            #expect(table.slot(of: name).map { table[slot: $0] } == Double(index))
        }
        #expect(table.slot(of: nil) == nil)
        #expect(table.slot(of: "c") == nil)
    }
}
