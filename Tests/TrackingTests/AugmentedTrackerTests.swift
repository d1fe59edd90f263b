import BeaconModel
import Foundation
import LinearAlgebra
import Ranging
import TestSupport
import Testing

@testable import Tracking

@Suite("AugmentedTracker, TrackerBank, SquareMatrix")
struct AugmentedTrackerTests {
    static let model = PathLossModel(measuredPower: -59, exponent: 2, sigma: 4)

    /// Epochs of simulated samples (seeded walk), each as tracker measurements keyed by beacon.
    static func epochs(
        seed: UInt64, simulation: WalkSimulator.Configuration = WalkSimulator.Configuration(),
        keyed: Bool = true
    ) -> (WalkSimulator, [[RSSIMeasurement]]) {
        let walk = WalkSimulator(seed: seed, configuration: simulation)
        var result: [[RSSIMeasurement]] = []
        var start = 1.0
        while start + 1 <= walk.configuration.duration {
            result.append(
                walk.samples(from: start, to: start + 1).map {
                    RSSIMeasurement(
                        time: $0.time, beaconPosition: walk.beacons[$0.beacon], model: model, rssi: $0.rssi,
                        beaconKey: keyed ? $0.beacon : nil)
                })
            start += 1
        }
        return (walk, result)
    }

    static func first(_ walk: WalkSimulator) -> PositionMeasurement {
        let p = walk.position(at: 1)
        return PositionMeasurement(time: 1, position: Point2D(x: p.x + 1, y: p.y - 1), sigma: 2)
    }

    static func isSymmetricPositiveDefinite(_ p: SquareMatrix) -> Bool {
        for i in 0..<p.size {
            for j in 0..<p.size where abs(p[i, j] - p[j, i]) > 1e-9 * max(1, abs(p[i, j])) { return false }
        }
        var f = p
        return f.factorCholesky()
    }

    @Test("SquareMatrix: Cholesky solve and inverse of a known SPD matrix")
    func squareMatrix() {
        // A = [[4, 2, 0], [2, 5, 1], [0, 1, 3]]; A x = (2, 9, 5) has x = (0, 1, 4/3)… solved exactly below.
        var a = SquareMatrix(size: 3)
        let values: [[Double]] = [[4, 2, 0], [2, 5, 1], [0, 1, 3]]
        for i in 0..<3 { for j in 0..<3 { a[i, j] = values[i][j] } }
        var factor = a
        let factored = factor.factorCholesky()
        #expect(factored)
        #expect(abs(factor.logDeterminantOfFactored - log(4 * (5 * 3 - 1) - 2 * (2 * 3))) < 1e-12)
        var b = [2.0, 9.0, 5.0]
        factor.solveFactored(&b)
        for i in 0..<3 {
            let row = (0..<3).reduce(0.0) { $0 + values[i][$1] * b[$1] }
            #expect(abs(row - [2.0, 9.0, 5.0][i]) < 1e-12)
        }
        var inverse = SquareMatrix(size: 3)
        factor.invertFactored(into: &inverse)
        for i in 0..<3 {
            for j in 0..<3 {
                let product = (0..<3).reduce(0.0) { $0 + values[i][$1] * inverse[$1, j] }
                #expect(abs(product - (i == j ? 1 : 0)) < 1e-12)
            }
        }
        var indefinite = a
        indefinite[2, 2] = -1
        let indefiniteFactored = indefinite.factorCholesky()
        #expect(!indefiniteFactored)
    }

    @Test("With the offset fixed and no bias states it is the plain tracker's epoch update, to 1e-9")
    func reducesToPlainTracker() throws {
        let (walk, epochs) = Self.epochs(seed: 11)
        var plain = try KalmanTracker(first: Self.first(walk))
        var augmented = try AugmentedTracker(
            first: Self.first(walk), configuration: TrackerConfiguration(motionModes: nil),
            offset: .fixed(0), shadowing: .independent)
        for (k, epoch) in epochs.prefix(120).enumerated() {
            let end = Double(k) + 2
            try plain.update(epoch, at: end)
            try augmented.update(epoch, at: end)
            let a = plain.estimate, b = augmented.estimate
            #expect(abs(a.position.x - b.position.x) < 1e-9 && abs(a.position.y - b.position.y) < 1e-9)
            #expect(abs(a.covarianceXX - b.covarianceXX) < 1e-9 && abs(a.covarianceYY - b.covarianceYY) < 1e-9)
            #expect(abs(plain.noiseScale - augmented.noiseScale) < 1e-12)
        }
    }

    @Test("A phone reading 6 dB high: the offset converges to it within 3σ and every covariance stays SPD")
    func offsetConverges() throws {
        var simulation = WalkSimulator.Configuration()
        simulation.deviceOffset = 6
        let (walk, epochs) = Self.epochs(seed: 12, simulation: simulation)
        var tracker = try AugmentedTracker(first: Self.first(walk))
        for (k, epoch) in epochs.enumerated() {
            try tracker.update(epoch, at: Double(k) + 2)
            #expect(Self.isSymmetricPositiveDefinite(tracker.covariance))
            let finite = tracker.state.allSatisfy { $0.isFinite }
            #expect(finite)
        }
        let sigma = tracker.deviceOffsetVariance.squareRoot()
        #expect(sigma > 0 && sigma < 1)
        #expect(abs(tracker.deviceOffset - 6) < 3 * max(sigma, 0.2))
        // A fixed offset is reported as given, with no variance.
        let fixed = try AugmentedTracker(first: Self.first(walk), offset: .fixed(6))
        #expect(fixed.deviceOffset == 6 && fixed.deviceOffsetVariance == 0)
    }

    @Test("Fewer bias slots than beacons: the least recently heard gives its slot up; results stay finite")
    func slotsAreReused() throws {
        let (walk, epochs) = Self.epochs(seed: 13)
        var tracker = try AugmentedTracker(
            first: Self.first(walk),
            shadowing: ShadowingModel(correlatedShare: 0.5, correlationTime: 3, maximumStates: 3))
        #expect(tracker.state.count == 5 + 3)
        for (k, epoch) in epochs.prefix(60).enumerated() {
            try tracker.update(epoch, at: Double(k) + 2)
            #expect(Self.isSymmetricPositiveDefinite(tracker.covariance))
            let keys = tracker.slotKeys.compactMap { $0 }
            #expect(keys.count == 3 && Set(keys).count == 3)
            // The slots hold beacons of this epoch (heard most recently).
            let heard = Set(epoch.compactMap(\.beaconKey))
            #expect(keys.allSatisfy { heard.contains($0) })
        }
        // A restart at a fix frees every slot; the offset estimate survives it.
        let offset = tracker.deviceOffset
        let far = PositionMeasurement(time: 62, position: Point2D(x: 2, y: 2), sigma: 0.5)
        for _ in 0..<3 { try tracker.verify(against: far) }
        #expect(tracker.slotKeys.allSatisfy { $0 == nil })
        #expect(tracker.deviceOffset == offset)
    }

    @Test(
        "The bank weighs the models by evidence: independent samples favour the independent model, AR(1) shadowing the correlated one"
    )
    func bankChoosesTheModel() throws {
        for share in [0.0, 0.6] {
            var simulation = WalkSimulator.Configuration()
            simulation.shadowingShare = share
            simulation.shadowingTime = 5
            var independentWins = 0
            for seed: UInt64 in 21...24 {
                let (walk, epochs) = Self.epochs(seed: seed, simulation: simulation)
                var bank = try TrackerBank(
                    first: Self.first(walk), configuration: TrackerConfiguration(),
                    offset: .fixed(0), shadowing: [.independent, ShadowingModel()],
                    floorElevation: 0)
                for (k, epoch) in epochs.enumerated() { try bank.update(epoch, at: Double(k) + 2) }
                #expect(abs(bank.weights.reduce(0, +) - 1) < 1e-12)
                if bank.totalLogEvidence[0] > bank.totalLogEvidence[1] { independentWins += 1 }
            }
            print(
                "bank, shadowing share \(share): the independent model has the larger evidence on \(independentWins) of 4 walks"
            )
            #expect(share == 0 ? independentWins >= 3 : independentWins == 0)
        }
    }

    @Test(
        "The smoother over the recorded steps: finite, and better than the causal track on a walk",
        arguments: [(ShadowingModel.independent, 0.7), (ShadowingModel(), 0.9)])
    func smootherImproves(shadowing: ShadowingModel, ratio: Double) throws {
        let (walk, epochs) = Self.epochs(seed: 14)
        var tracker = try AugmentedTracker(
            first: Self.first(walk), configuration: TrackerConfiguration(recordsHistory: true),
            offset: .fixed(0), shadowing: shadowing)
        var causal: [TrackEstimate] = []
        for (k, epoch) in epochs.enumerated() {
            try tracker.update(epoch, at: Double(k) + 2)
            causal.append(tracker.estimate)
        }
        let smoothed = try AugmentedSmoother().smooth(tracker.history)
        #expect(smoothed.count == tracker.history.count)
        #expect(smoothed.allSatisfy { $0.position.x.isFinite && $0.position.y.isFinite && $0.accuracy.isFinite })
        func rmse(_ estimates: [TrackEstimate]) -> Double {
            let late = estimates.filter { $0.time >= 20 }
            let sum = late.reduce(0.0) { $0 + pow($1.position.distance(to: walk.position(at: $1.time)), 2) }
            return (sum / Double(late.count)).squareRoot()
        }
        print(
            String(
                format: "augmented tracker, seed 14, shadowing share %.1f: causal %.3f m, smoothed %.3f m",
                shadowing.correlatedShare, rmse(causal), rmse(smoothed)))
        #expect(rmse(smoothed) < ratio * rmse(causal))
        #expect(throws: TrackingError.self) { try AugmentedSmoother().smooth([]) }
    }

    @Test("Bad settings are typed errors")
    func badSettings() {
        let first = PositionMeasurement(time: 0, position: .zero, sigma: 1)
        #expect(throws: TrackingError.self) {
            try AugmentedTracker(first: first, offset: DeviceOffsetModel(priorSigma: -1))
        }
        #expect(throws: TrackingError.self) {
            try AugmentedTracker(first: first, offset: DeviceOffsetModel(initial: .nan))
        }
        #expect(throws: TrackingError.self) {
            try AugmentedTracker(first: first, shadowing: ShadowingModel(correlatedShare: 1))
        }
        #expect(throws: TrackingError.self) {
            try AugmentedTracker(first: first, shadowing: ShadowingModel(correlationTime: 0))
        }
        #expect(throws: TrackingError.self) {
            try TrackerBank(
                first: first, configuration: TrackerConfiguration(), offset: DeviceOffsetModel(),
                shadowing: [], floorElevation: 0)
        }
    }
}
