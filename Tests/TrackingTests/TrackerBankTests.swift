import BeaconModel
import Foundation
import TestSupport
import Testing

@testable import Tracking

/// The bank the engine runs: its mixture, its prediction, its smoothing, its restarts and its
/// floor changes, each against what its members say alone.
@Suite("TrackerBank: the engine's tracker")
struct TrackerBankTests {
    static let models = [ShadowingModel.independent, ShadowingModel()]

    /// A bank with the two default models, fed `count` epochs of walk `seed`.
    static func bank(seed: UInt64, epochs count: Int, recordsHistory: Bool = false) throws -> TrackerBank {
        let (walk, epochs) = AugmentedTrackerTests.epochs(seed: seed)
        var bank = try TrackerBank(
            first: AugmentedTrackerTests.first(walk),
            configuration: TrackerConfiguration(recordsHistory: recordsHistory),
            offset: DeviceOffsetModel(), shadowing: models, floorElevation: 0)
        for (k, epoch) in epochs.prefix(count).enumerated() { try bank.update(epoch, at: Double(k) + 2) }
        return bank
    }

    /// The moment-matched mixture of `estimates` with `weights`, written out per component.
    static func mixture(
        _ estimates: [TrackEstimate], _ weights: [Double]
    ) -> (x: Double, y: Double, xx: Double, xy: Double, yy: Double) {
        let x = zip(estimates, weights).reduce(0.0) { $0 + $1.1 * $1.0.position.x }
        let y = zip(estimates, weights).reduce(0.0) { $0 + $1.1 * $1.0.position.y }
        var xx = 0.0, xy = 0.0, yy = 0.0
        for (e, w) in zip(estimates, weights) {
            xx += w * (e.covarianceXX + (e.position.x - x) * (e.position.x - x))
            xy += w * (e.covarianceXY + (e.position.x - x) * (e.position.y - y))
            yy += w * (e.covarianceYY + (e.position.y - y) * (e.position.y - y))
        }
        return (x, y, xx, xy, yy)
    }

    static func expectClose(_ e: TrackEstimate, _ m: (x: Double, y: Double, xx: Double, xy: Double, yy: Double)) {
        #expect(abs(e.position.x - m.x) < 1e-12 && abs(e.position.y - m.y) < 1e-12)
        #expect(
            abs(e.covarianceXX - m.xx) < 1e-12 && abs(e.covarianceXY - m.xy) < 1e-12
                && abs(e.covarianceYY - m.yy) < 1e-12)
    }

    @Test(
        "Fixed-lag window: cached gains and the position block give what the batch smoother gives over the same steps"
    )
    func windowMatchesBatch() throws {
        let (walk, epochs) = AugmentedTrackerTests.epochs(seed: 37)
        var bank = try TrackerBank(
            first: AugmentedTrackerTests.first(walk), configuration: TrackerConfiguration(recordsHistory: true),
            offset: DeviceOffsetModel(), shadowing: Self.models, floorElevation: 0)
        var workspace = TrackerBank.WindowWorkspace()
        var window: [TrackEstimate] = []
        var compared = 0
        for (k, epoch) in epochs.prefix(40).enumerated() {
            try bank.update(epoch, at: Double(k) + 2)
            // A window of the last 4 s, as `lag` 3 keeps; gains are cached across epochs.
            bank.discardHistory(before: Double(k) + 2 - 3)
            try bank.smoothedWindow(into: &window, workspace: &workspace)
            let batch = try bank.members.map { try AugmentedSmoother().smooth($0.history) }
            #expect(window.count == bank.members[0].history.count)
            for i in window.indices {
                #expect(window[i].time == bank.members[0].history[i].time)
                #expect(window[i].time == batch[0][i].time && window[i].level == batch[0][i].level)
                let m = Self.mixture(batch.map { $0[i] }, bank.weights)
                let scale = max(1, abs(m.x), abs(m.y))
                #expect(
                    abs(window[i].position.x - m.x) < 1e-9 * scale && abs(window[i].position.y - m.y) < 1e-9 * scale)
                #expect(
                    abs(window[i].covarianceXX - m.xx) < 1e-9 * m.xx && abs(window[i].covarianceYY - m.yy) < 1e-9 * m.yy
                        && abs(window[i].covarianceXY - m.xy) < 1e-9 * (m.xx * m.yy).squareRoot(),
                    "step \(i) at epoch \(k)")
                compared += 1
            }
        }
        #expect(compared > 100)
    }

    @Test(
        "Scratch space released between epochs (as the engine does for idle devices) changes no estimate, prediction or smoothed step",
        arguments: [false, true])
    func releasedScratch(recordsHistory: Bool) throws {
        let (walk, epochs) = AugmentedTrackerTests.epochs(seed: 41)
        var kept = try TrackerBank(
            first: AugmentedTrackerTests.first(walk),
            configuration: TrackerConfiguration(recordsHistory: recordsHistory),
            offset: DeviceOffsetModel(), shadowing: Self.models, floorElevation: 0)
        var released = kept
        var compared = 0
        for (k, epoch) in epochs.prefix(30).enumerated() {
            // Released every other epoch, and before a prediction, which also uses the scratch.
            if k % 2 == 0 { released.releaseScratch() }
            #expect(try released.estimate(at: Double(k) + 1.5) == kept.estimate(at: Double(k) + 1.5))
            try kept.update(epoch, at: Double(k) + 2)
            try released.update(epoch, at: Double(k) + 2)
            if recordsHistory && k % 5 == 4 {
                kept.discardHistory(before: Double(k) - 2)
                released.discardHistory(before: Double(k) - 2)
            }
            #expect(released.estimate == kept.estimate)
            #expect(released.weights == kept.weights)
            #expect(released.deviceOffset == kept.deviceOffset)
            compared += 1
        }
        #expect(compared == 30)
        // A released tracker really gave its scratch up (the check above is not vacuous).
        released.releaseScratch()
        #expect(released.members.allSatisfy { $0.scratch.pPrior.size == 0 })
        if recordsHistory {
            #expect(
                try TrackerBank.smooth(released.histories, totalLogEvidence: released.totalLogEvidence)
                    == TrackerBank.smooth(kept.histories, totalLogEvidence: kept.totalLogEvidence))
        }
    }

    @Test("The estimate is the members' moment-matched mixture, now and predicted 3 s ahead; weights sum to 1")
    func mixture() throws {
        let bank = try Self.bank(seed: 31, epochs: 30)
        #expect(abs(bank.weights.reduce(0, +) - 1) < 1e-12)
        #expect(bank.weights.allSatisfy { $0 > 0 })
        Self.expectClose(bank.estimate, Self.mixture(bank.members.map(\.estimate), bank.weights))
        // The spread of the members adds to the covariance: never below the weighted mean of theirs.
        let meanXX = zip(bank.members, bank.weights).reduce(0.0) { $0 + $1.1 * $1.0.estimate.covarianceXX }
        #expect(bank.estimate.covarianceXX >= meanXX - 1e-12)
        let later = bank.time + 3
        let predicted = try bank.members.map { member in
            var copy = member
            try copy.predict(to: later)
            return copy.estimate
        }
        let ahead = try bank.estimate(at: later)
        #expect(ahead.time == later)
        Self.expectClose(ahead, Self.mixture(predicted, bank.weights))
        // Predicting does not change the bank.
        #expect(bank.time == later - 3)
        #expect(throws: TrackingError.self) { try bank.estimate(at: later - 10) }
    }

    @Test("A bank of one model is that tracker: the same estimates, offset and smoothed track")
    func oneMember() throws {
        let (walk, epochs) = AugmentedTrackerTests.epochs(seed: 32)
        let configuration = TrackerConfiguration(recordsHistory: true)
        var bank = try TrackerBank(
            first: AugmentedTrackerTests.first(walk), configuration: configuration,
            offset: DeviceOffsetModel(), shadowing: [ShadowingModel()], floorElevation: 0)
        var tracker = try AugmentedTracker(
            first: AugmentedTrackerTests.first(walk), configuration: configuration,
            offset: DeviceOffsetModel(), shadowing: ShadowingModel())
        for (k, epoch) in epochs.prefix(40).enumerated() {
            let a = try bank.update(epoch, at: Double(k) + 2)
            let b = try tracker.update(epoch, at: Double(k) + 2)
            #expect(a == b)
            #expect(bank.estimate == tracker.estimate)
        }
        #expect(bank.weights == [1])
        #expect(bank.deviceOffset == tracker.deviceOffset)
        #expect(bank.deviceOffsetVariance == tracker.deviceOffsetVariance)
        let smoothed = try TrackerBank.smooth(bank.histories, totalLogEvidence: bank.totalLogEvidence)
        #expect(smoothed == (try AugmentedSmoother().smooth(tracker.history)))
    }

    @Test("The smoothed batch mixes the members' smoothed tracks with the batch evidence as weights")
    func smoothing() throws {
        let bank = try Self.bank(seed: 33, epochs: 30, recordsHistory: true)
        let smoothed = try TrackerBank.smooth(bank.histories, totalLogEvidence: bank.totalLogEvidence)
        let tracks = try bank.histories.map { try AugmentedSmoother().smooth($0) }
        let top = bank.totalLogEvidence.max()!
        let raw = bank.totalLogEvidence.map { exp($0 - top) }
        let weights = raw.map { $0 / raw.reduce(0, +) }
        #expect(smoothed.count == tracks[0].count)
        for i in smoothed.indices { Self.expectClose(smoothed[i], Self.mixture(tracks.map { $0[i] }, weights)) }
        #expect(throws: TrackingError.self) { try TrackerBank.smooth([], totalLogEvidence: []) }
    }

    @Test("Three fixes in a row far from the track restart every member there; a floor change moves all of them")
    func restartAndFloors() throws {
        var bank = try Self.bank(seed: 34, epochs: 20)
        let time = bank.time
        let far = PositionMeasurement(time: time + 1, position: Point2D(x: 2, y: 2), sigma: 0.5)
        var outcomes: [UpdateOutcome] = []
        for _ in 0..<3 { outcomes.append(try bank.verify(against: far)) }
        #expect(outcomes.last == .reset)
        #expect(bank.members.allSatisfy { $0.estimate.position == Point2D(x: 2, y: 2) })
        #expect(bank.estimate.position.distance(to: Point2D(x: 2, y: 2)) < 1e-12)
        try bank.changeLevel(to: 1, elevation: 3.5, outline: nil, at: time + 2)
        #expect(bank.level == 1)
        #expect(bank.members.allSatisfy { $0.level == 1 && $0.floorElevation == 3.5 && $0.estimate.speed == 0 })
        #expect(bank.estimate.covarianceXX >= TrackerConfiguration().resetPositionVariance)
    }

    @Test(
        "A fix or beacon beyond ±1,000 km, or a time beyond ±1e10 s, is an outOfRange error that leaves the bank as it was (the fuzzer's 9.8e261 m fix made the mixture's spread infinite)"
    )
    func absurdCoordinates() throws {
        var bank = try Self.bank(seed: 35, epochs: 10)
        let before = bank.estimate
        let far = PositionMeasurement(time: bank.time + 1, position: Point2D(x: 9.8e261, y: -2.2e263), sigma: 1)
        #expect(throws: TrackingError.outOfRange(field: "PositionMeasurement.x", value: 9.8e261, limit: 1e6)) {
            try bank.verify(against: far)
        }
        let beacon = RSSIMeasurement(
            time: bank.time + 1, beaconPosition: Point3D(x: 0, y: 2e6, z: 2), model: AugmentedTrackerTests.model,
            rssi: -70, beaconKey: 0)
        #expect(throws: TrackingError.self) { try bank.update([beacon], at: bank.time + 1) }
        #expect(bank.estimate == before)
        #expect(throws: TrackingError.self) {
            try bank.changeLevel(to: 1, elevation: 5e6, outline: nil, at: bank.time + 1)
        }
        // The fuzzer's other route to 1e261 m: a prediction over 8.8e265 s at constant velocity.
        #expect(throws: TrackingError.outOfRange(field: "time", value: 8.8e265, limit: 1e10)) {
            try bank.estimate(at: 8.8e265)
        }
        #expect(bank.estimate == before)
    }
}
