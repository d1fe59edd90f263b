import Testing

@testable import PositioningIO

/// The order check's hash table of device times, against `Dictionary` under the same operations.
@Suite("Device clock table: the order check's latest time per device")
struct DeviceClockTableTests {
    /// A small deterministic generator (SplitMix64), so that a failure repeats.
    struct SplitMix {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test("inserts, updates, growth and removals give the same entries as a dictionary", arguments: [1, 2, 3])
    func matchesDictionary(seed: UInt64) {
        var random = SplitMix(state: seed)
        var table = DeviceClockTable()
        var reference: [String?: Double] = [:]
        // Names short and long (over 15 bytes, stored out of line), a nil device, 5,000 in all.
        let names: [String?] =
            [nil]
            + (0..<5_000).map { index in index % 3 == 0 ? "phone-\(index)" : "a-much-longer-device-name-\(index)-é" }
        for step in 0..<40_000 {
            let name = names[Int(random.next() % UInt64(names.count))]
            let time = Double(step) / 10
            let slot = table.slot(for: name)
            #expect(table[slot: slot] == (reference[name] ?? -.infinity))
            if random.next() % 4 != 0 {
                table[slot: slot] = time
                reference[name] = time
            } else if reference[name] == nil {
                reference[name] = -.infinity  // looked up: inserted at −∞
            }
            if step % 10_000 == 9_999 {
                let cutoff = time - 500
                table.removeAll(before: cutoff)
                reference = reference.filter { $0.value >= cutoff }
            }
        }
        #expect(table.count == reference.count)
        for name in names { #expect(table.time(of: name) == reference[name]) }
    }

    @Test("names that differ only past the first bytes, or by one byte, keep separate entries")
    func similarNames() {
        var table = DeviceClockTable()
        let names =
            (0..<1_000).map { "device-\(String(repeating: "x", count: $0 % 40))-\($0)" } + ["", "a", "b", "ab", "ba"]
        for (index, name) in names.enumerated() { table[slot: table.slot(for: name)] = Double(index) }
        #expect(table.count == names.count)
        for (index, name) in names.enumerated() { #expect(table.time(of: name) == Double(index)) }
        #expect(table.time(of: nil) == nil)
        #expect(table.time(of: "c") == nil)
    }
}
