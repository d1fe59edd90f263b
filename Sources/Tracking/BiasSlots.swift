/// Which beacon holds each of the ``AugmentedTracker``'s shadowing-bias states, when it was
/// last heard, and its stationary bias variance sσ² (dB², before the noise scale).
struct BiasSlots: Sendable, Hashable {
    /// The beacon key of each slot; −1 for a free slot.
    var key: [Int]
    /// When each slot's beacon was last heard, seconds.
    var heard: [Double]
    /// Each slot's stationary bias variance sσ², dB².
    var variance: [Double]

    init(count: Int) {
        key = Array(repeating: -1, count: count)
        heard = Array(repeating: -Double.infinity, count: count)
        variance = Array(repeating: 0, count: count)
    }

    var count: Int { key.count }

    mutating func freeAll() {
        for j in key.indices {
            key[j] = -1
            heard[j] = -.infinity
            variance[j] = 0
        }
    }

    /// Copies `other` (same count) without allocating.
    mutating func assign(_ other: BiasSlots) {
        for j in key.indices {
            key[j] = other.key[j]
            heard[j] = other.heard[j]
            variance[j] = other.variance[j]
        }
    }

    /// The slot of beacon `beaconKey` heard at `time`, taking a free slot or the one heard
    /// least recently before `notSince` when the beacon has none; `renew[j]` is set for a slot
    /// that changes hands. Returns nil when every slot was heard at or after `notSince`.
    mutating func slot(
        for beaconKey: Int, at time: Double, variance v: Double, notSince: Double,
        renew: inout [Bool]
    ) -> Int? {
        if let j = key.firstIndex(of: beaconKey) {
            heard[j] = max(heard[j], time)
            return j
        }
        var chosen: Int?
        for j in key.indices where heard[j] < notSince {
            if chosen == nil || heard[j] < heard[chosen!] { chosen = j }
        }
        guard let j = chosen else { return nil }
        key[j] = beaconKey
        heard[j] = time
        variance[j] = v
        renew[j] = true
        return j
    }
}
