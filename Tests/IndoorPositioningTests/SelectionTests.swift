import TestSupport
import Testing

@testable import IndoorPositioning

/// The in-place selection the beacon-consistency watch takes its median with, and the in-place
/// sort of a device's pending samples: both must give what the standard library's sorts give.
@Suite("In-place selection and sorting")
struct SelectionTests {
    @Test(
        "selectInPlace(k) is sorted()[k] for every k, on random arrays with many ties", arguments: [1, 2, 3, 7, 20, 101]
    )
    func selection(count: Int) {
        var rng = SeededGenerator(seed: UInt64(count))
        for _ in 0..<20 {
            // Values on a coarse grid so that ties are common.
            let values = (0..<count).map { _ in (rng.gaussian(sigma: 3) * 2).rounded() / 2 }
            let sorted = values.sorted()
            for k in 0..<count {
                var copy = values
                #expect(copy.selectInPlace(k) == sorted[k])
                #expect(copy.sorted() == sorted)  // a permutation of the input
            }
        }
    }

    @Test("the pending samples sort is the stable sort by time, beacon and RSSI")
    func pendingSort() {
        var rng = SeededGenerator(seed: 9)
        for count in [0, 1, 2, 5, 40] {
            var samples = (0..<count).map { _ in
                DeviceTrack.Pending(
                    time: (Double(Int.random(in: 0...5, using: &rng)) * 0.25),
                    slot: Int.random(in: 0...3, using: &rng), rssi: Double(Int.random(in: -80 ... -78, using: &rng)))
            }
            let expected = samples.sorted { ($0.time, $0.slot, $0.rssi) < ($1.time, $1.slot, $1.rssi) }
            DeviceTrack.sortInPlace(&samples)
            #expect(
                samples.map { "\($0.time) \($0.slot) \($0.rssi)" }
                    == expected.map { "\($0.time) \($0.slot) \($0.rssi)" })
        }
    }
}
