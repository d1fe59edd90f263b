import Testing

@testable import IndoorPositioning

/// The beacon watch's rule on which beacons it may set apart: only those with a measured model.
@Suite("Beacon watch: only measured beacons are set apart")
struct BeaconConsistencyTests {
    /// Twelve beacons on one floor; beacon 0 misfits (u = 9 every epoch), the others fit (u = 1),
    /// for `epochs` epochs.
    static func feed(_ watch: inout BeaconConsistency, epochs: Int) {
        for _ in 0..<epochs {
            watch.record(slot: 0, normalizedSquaredResidual: 9)
            for slot in 1..<12 { watch.record(slot: slot, normalizedSquaredResidual: 1) }
            watch.decide()
        }
    }

    static let levels = Array(repeating: 0, count: 12)

    @Test("a misfitting beacon with a measured model is set apart; on generic values it is only weighed down")
    func measuredOnly() {
        var measured = BeaconConsistency(levels: Self.levels, measured: Array(repeating: true, count: 12))
        var generic = BeaconConsistency(levels: Self.levels, measured: Array(repeating: false, count: 12))
        var deviceWatch = BeaconConsistency(levels: Self.levels, measured: nil)
        Self.feed(&measured, epochs: 60)
        Self.feed(&generic, epochs: 60)
        Self.feed(&deviceWatch, epochs: 60)
        #expect(measured.excluded == [true] + Array(repeating: false, count: 11))
        #expect(!generic.excluded.contains(true))
        #expect(!deviceWatch.excluded.contains(true))
        // Weighed down alike: the score (about 9 after 60 epochs of memory 30) over the median's 1.
        for watch in [measured, generic, deviceWatch] {
            #expect(watch.inflation[0] > 5 && watch.inflation[0] <= BeaconConsistency.maximumInflation)
            #expect(watch.inflation[1...].allSatisfy { $0 == 1 })
        }
    }

    @Test("a beacon whose model is learned can be set apart from then on, and a copy keeps that")
    func learnedModel() {
        var watch = BeaconConsistency(levels: Self.levels, measured: Array(repeating: false, count: 12))
        Self.feed(&watch, epochs: 60)
        #expect(!watch.excluded[0])
        watch.markMeasured(slot: 0)
        // A worker's copy takes the mark with the scores (value by value).
        var copy = BeaconConsistency(levels: Self.levels, measured: Array(repeating: false, count: 12))
        copy.copyState(from: watch)
        watch.decide()
        #expect(watch.excluded[0])
        copy.decide()
        #expect(copy.excluded[0])
        // The device watch (nil) has nothing to mark.
        var device = BeaconConsistency(levels: Self.levels, measured: nil)
        Self.feed(&device, epochs: 60)
        device.markMeasured(slot: 0)
        device.decide()
        #expect(!device.excluded[0])
    }
}
