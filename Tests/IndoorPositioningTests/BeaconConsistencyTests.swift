import Testing

@testable import IndoorPositioning

/// The beacon watch's rule on which beacons it may set apart: only those with a measured model.
@Suite("Beacon watch: only measured beacons are set apart")
struct BeaconConsistencyTests {
    /// Twelve beacons on one floor; beacon 0 misfits (u = 9 every epoch), the others fit (u = 1),
    /// for `epochs` epochs, each decided with `isMeasured` (nil: a device's own watch).
    static func feed(_ watch: inout BeaconConsistency, epochs: Int, isMeasured: ((Int) -> Bool)?) {
        for _ in 0..<epochs {
            watch.record(slot: 0, normalizedSquaredResidual: 9)
            for slot in 1..<12 { watch.record(slot: slot, normalizedSquaredResidual: 1) }
            if let isMeasured { watch.decide(isMeasured: isMeasured) } else { watch.decide() }
        }
    }

    static let levels = Array(repeating: 0, count: 12)

    @Test("a misfitting beacon with a measured model is set apart; on generic values it is only weighed down")
    func measuredOnly() {
        var measured = BeaconConsistency(levels: Self.levels)
        var generic = BeaconConsistency(levels: Self.levels)
        var deviceWatch = BeaconConsistency(levels: Self.levels)
        Self.feed(&measured, epochs: 60, isMeasured: { _ in true })
        Self.feed(&generic, epochs: 60, isMeasured: { _ in false })
        Self.feed(&deviceWatch, epochs: 60, isMeasured: nil)
        #expect(measured.excluded == [true] + Array(repeating: false, count: 11))
        #expect(!generic.excluded.contains(true))
        #expect(!deviceWatch.excluded.contains(true))
        // Weighed down alike: the score (about 9 after 60 epochs of memory 30) over the median's 1.
        for watch in [measured, generic, deviceWatch] {
            #expect(watch.inflation[0] > 5 && watch.inflation[0] <= BeaconConsistency.maximumInflation)
            #expect(watch.inflation[1...].allSatisfy { $0 == 1 })
        }
    }

    @Test("a beacon whose model is learned can be set apart from then on; the table says which, and a copy keeps that")
    func learnedModel() throws {
        var watch = BeaconConsistency(levels: Self.levels)
        Self.feed(&watch, epochs: 60, isMeasured: { _ in false })
        #expect(!watch.excluded[0])
        watch.decide(isMeasured: { $0 == 0 })
        #expect(watch.excluded[0])
        // The device watch never sets a beacon apart.
        var device = BeaconConsistency(levels: Self.levels)
        Self.feed(&device, epochs: 60, isMeasured: nil)
        device.decide()
        #expect(!device.excluded[0])
        // Which models are measured: those of the calibration, then those learned, copied to a
        // worker's table with the models.
        let site = try SimulatedSite(seed: 1)
        let first = SimulatedSite.identity(0)
        var table = BeaconTable(plan: site.plan, calibration: [first: site.walk.configuration.model], sampleSigma: nil)
        let slot = try #require(table.slot(of: first)), other = try #require(table.slot(of: SimulatedSite.identity(1)))
        #expect(table[slot].isMeasured && !table[other].isMeasured)
        let learned = PathLossUncertainty(measuredPowerSigma: 1.5, exponentSigma: 0.2, correlation: -0.8)
        table.setModel(site.walk.configuration.model, uncertainty: learned, slot: other)
        #expect(table[other].isMeasured && table[other].uncertainty == learned && table[slot].uncertainty == nil)
        var worker = BeaconTable(plan: site.plan, calibration: [:], sampleSigma: nil)
        #expect(!worker[slot].isMeasured && !worker[other].isMeasured)
        worker.copyModels(from: table)
        #expect(worker[slot].isMeasured && worker[other].isMeasured)
        #expect(worker[other].uncertainty == learned && worker[slot].uncertainty == nil)
    }
}
