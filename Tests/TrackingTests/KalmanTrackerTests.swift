import BeaconModel
import Foundation
import LinearAlgebra
import Ranging
import TestSupport
import Testing

@testable import Tracking

@Suite("KalmanTracker")
struct KalmanTrackerTests {
    static let model = PathLossModel(measuredPower: -59, exponent: 2, sigma: 4)
    static let beacons: [Point3D] = [
        Point3D(x: 1, y: 1, z: 2.6), Point3D(x: 12, y: 1, z: 2.6), Point3D(x: 23, y: 1, z: 2.6),
        Point3D(x: 23, y: 15, z: 2.6), Point3D(x: 12, y: 15, z: 2.6), Point3D(x: 1, y: 15, z: 2.6)
    ]

    static func tracker(
        at p: Point2D = Point2D(x: 10, y: 8), sigma: Double = 1,
        _ configuration: TrackerConfiguration = TrackerConfiguration()
    ) throws -> KalmanTracker {
        try KalmanTracker(first: PositionMeasurement(time: 0, position: p, sigma: sigma), configuration: configuration)
    }

    static func isSymmetricPositiveDefinite(_ p: Matrix4) -> Bool {
        for i in 0..<4 { for j in 0..<4 where abs(p[i, j] - p[j, i]) > 1e-12 * max(1, abs(p[i, j])) { return false } }
        return p.choleskyFactor != nil
    }

    @Test("Prediction grows the covariance by Q: q dt³/3 in position after a gap")
    func predictGrowsCovariance() throws {
        let cv = TrackerConfiguration(accelerationDensity: 0.2, velocityCorrelationTime: nil)
        var t = try Self.tracker(sigma: 1, cv)
        let before = t.covariance
        try t.predict(to: 5)
        // P⁻ = F P Fᵀ + Q: var x = 1 + dt² v₀² + q dt³/3 with v₀ = 0.8 m/s, q = 0.2.
        let expected = 1 + 25 * 0.64 + 0.2 * 125 / 3
        #expect(abs(t.covariance[0, 0] - expected) < 1e-9)
        #expect(t.covariance[0, 0] > before[0, 0])
        #expect(t.covariance[2, 2] > before[2, 2])
        var longer = try Self.tracker(sigma: 1, cv)
        try longer.predict(to: 8)
        #expect(longer.estimate.accuracy > t.estimate.accuracy)
    }

    @Test("The default Ornstein–Uhlenbeck velocity decays and its variance tends to q τ / 2")
    func ornsteinUhlenbeck() throws {
        let config = TrackerConfiguration()  // q = 0.8 m²/s³, τ = 2 s
        var t = try Self.tracker(sigma: 0.5, config)
        try t.update(PositionMeasurement(time: 1, position: Point2D(x: 11.2, y: 8), sigma: 0.3))
        let v = t.state[2]
        #expect(v > 0.3)  // it moved 1.2 m in 1 s
        try t.predict(to: 3)
        #expect(abs(t.state[2] - v * exp(-1.0)) < 1e-12)  // e^{−dt/τ}, dt = 2 s
        try t.predict(to: 25)  // 22 s: e^{−2·22/τ} ≈ 3e-10 of the start remains (no coast limit yet)
        #expect(abs(t.covariance[2, 2] - 0.8 * 2 / 2) < 1e-6)
        // Over dt ≪ τ the closed form approaches the constant-velocity Q (relative error ~ dt/τ).
        let motion = MotionModel(density: 0.8, correlationTime: 2)
        let (qpp, qpv, qvv) = motion.noise(1e-3)
        #expect(abs(qvv / 0.8e-3 - 1) < 1e-3)
        #expect(abs(qpv / 0.4e-6 - 1) < 1e-3)
        #expect(abs(qpp / (0.8e-9 / 3) - 1) < 1e-3)
    }

    @Test("A very long gap stops coasting: velocity zero, covariance capped")
    func coastLimit() throws {
        var t = try Self.tracker()
        _ = try t.update(PositionMeasurement(time: 1, position: Point2D(x: 11, y: 8), sigma: 0.5))
        try t.predict(to: 1000)
        #expect(t.state[2] == 0 && t.state[3] == 0)
        #expect(t.covariance[0, 0] == 100)
        #expect(t.estimate.position.x.isFinite)
    }

    @Test("Covariance stays symmetric positive-definite over a long run of RSSI and fix updates")
    func covarianceStaysSPD() throws {
        var rng = SeededGenerator(seed: 11)
        var t = try Self.tracker()
        var time = 0.0
        for i in 0..<20_000 {
            time += 0.03
            let b = Self.beacons[i % Self.beacons.count]
            let truth = Point3D(x: 10 + 5 * sin(time / 10), y: 8 + 4 * cos(time / 7), z: 1.2)
            let rssi = Self.model.expectedRSSI(atDistance: truth.distance(to: b)) + rng.gaussian(sigma: 4)
            try t.update(RSSIMeasurement(time: time, beaconPosition: b, model: Self.model, rssi: min(rssi, -1)))
            if i % 97 == 0 {
                try t.update(PositionMeasurement(time: time, position: truth.planar, sigma: 0.05))
            }
            #expect(Self.isSymmetricPositiveDefinite(t.covariance), "step \(i)")
            if !Self.isSymmetricPositiveDefinite(t.covariance) { break }
        }
        #expect(t.estimate.accuracy < 2)
    }

    @Test("Joseph form: equals (I − K H) P for the optimal gain and stays PD with a precise fix")
    func josephForm() throws {
        var t = try Self.tracker(sigma: 2)
        try t.predict(to: 1)
        let p = t.covariance
        let r = 1e-10  // an almost exact fix: the short form (I − K H) P loses positive-definiteness here
        _ = try t.update(PositionMeasurement(time: 1, x: 10, y: 8, covarianceXX: r, covarianceYY: r))
        // Expected from the textbook formula with S = P₂₂ + R (2 × 2, diagonal here).
        let sx = p[0, 0] + r
        let expectedVX = p[2, 2] - p[2, 0] * p[0, 2] / sx
        #expect(abs(t.covariance[2, 2] - expectedVX) < 1e-6)
        #expect(t.covariance[0, 0] > 0 && t.covariance[0, 0] < 2e-10)
        #expect(Self.isSymmetricPositiveDefinite(t.covariance))
    }

    @Test("Gating rejects a 30 m outlier fix and an absurd RSSI sample; the state does not move")
    func gatingRejectsOutlier() throws {
        var t = try Self.tracker(sigma: 0.5)
        _ = try t.update(PositionMeasurement(time: 1, position: Point2D(x: 10.2, y: 8), sigma: 1))
        let before = t.estimate.position
        let outcome = try t.update(PositionMeasurement(time: 2, position: Point2D(x: 40, y: 8), sigma: 1.5))
        guard case .gated(let d2, 1) = outcome else {
            Issue.record("expected gated, got \(outcome)")
            return
        }
        #expect(d2 > TrackerConfiguration().fixGate)
        #expect(t.estimate.position.distance(to: before) < 1.5)  // only the prediction moved it
        // −20 dBm at 10 m from a beacon (expected ≈ −79 dBm): 60 dB off, σ 4 dB.
        let rssiOutcome = try t.update(
            RSSIMeasurement(
                time: 2.1, beaconPosition: Point3D(x: 10, y: 18, z: 2.6),
                model: Self.model, rssi: -20))
        #expect(!rssiOutcome.isUsed)
    }

    @Test("A track that jumped 15 m resets after N rejected fixes and follows the new position")
    func resetAfterRepeatedRejections() throws {
        var t = try Self.tracker(at: Point2D(x: 5, y: 8), sigma: 0.5)
        for k in 1...5 { try t.update(PositionMeasurement(time: Double(k), position: Point2D(x: 5, y: 8), sigma: 0.5)) }
        var outcomes: [UpdateOutcome] = []
        for k in 6...8 {
            outcomes.append(
                try t.update(PositionMeasurement(time: Double(k), position: Point2D(x: 20, y: 8), sigma: 0.8)))
        }
        #expect(!outcomes[0].isUsed && !outcomes[1].isUsed)
        #expect(outcomes[2] == .reset)
        #expect(t.estimate.position.distance(to: Point2D(x: 20, y: 8)) < 1e-9)
        let next = try t.update(PositionMeasurement(time: 9, position: Point2D(x: 20.3, y: 8), sigma: 0.8))
        #expect(next.isUsed)
    }

    @Test("A track at the mirror position of a beacon line is reset by fix verification")
    func verificationRecoversMirror() throws {
        // Beacons along one wall (y = 1): the true position (12, 5) and its mirror (12, −3)
        // give identical RSSI, so the samples alone can never pull the track back.
        let line = [Point3D(x: 1, y: 1, z: 1.2), Point3D(x: 12, y: 1, z: 1.2), Point3D(x: 23, y: 1, z: 1.2)]
        let truth = Point3D(x: 12, y: 5, z: 1.2)
        func run(verify: Bool) throws -> (KalmanTracker, Bool) {
            var rng = SeededGenerator(seed: 5)
            var t = try Self.tracker(at: Point2D(x: 12, y: -3), sigma: 0.7)
            var reset = false
            for epoch in 1...8 {
                for i in 0..<24 {
                    let b = line[i % line.count]
                    let rssi = Self.model.expectedRSSI(atDistance: truth.distance(to: b)) + rng.gaussian(sigma: 4)
                    try t.update(
                        RSSIMeasurement(
                            time: Double(epoch - 1) + Double(i) / 24, beaconPosition: b,
                            model: Self.model, rssi: min(rssi, -1)))
                }
                if verify {
                    let fix = PositionMeasurement(time: Double(epoch), position: truth.planar, sigma: 1.5)
                    if try t.verify(against: fix) == .reset { reset = true }
                }
            }
            return (t, reset)
        }
        let (unverified, _) = try run(verify: false)
        #expect(unverified.estimate.position.y < 0)  // stuck on the wrong side without verification
        let (verified, reset) = try run(verify: true)
        #expect(reset)
        #expect(verified.estimate.position.distance(to: truth.planar) < 2.5)
    }

    @Test("A timestamp older than the state is a typed error and changes nothing")
    func outOfOrder() throws {
        var t = try Self.tracker()
        try t.predict(to: 2)
        let before = t.estimate
        #expect(throws: TrackingError.timestampBeforeState(time: 1.5, stateTime: 2)) {
            try t.update(RSSIMeasurement(time: 1.5, beaconPosition: Self.beacons[0], model: Self.model, rssi: -70))
        }
        #expect(throws: TrackingError.timestampBeforeState(time: 1, stateTime: 2)) {
            try t.update(PositionMeasurement(time: 1, position: .zero, sigma: 1))
        }
        #expect(throws: TrackingError.timestampBeforeState(time: 1, stateTime: 2)) { try t.predict(to: 1) }
        #expect(t.estimate == before)
        // Equal times are fine.
        #expect(
            try t.update(RSSIMeasurement(time: 2, beaconPosition: Self.beacons[0], model: Self.model, rssi: -75)).isUsed
        )
    }

    @Test("NaN, infinity, positive RSSI and bad covariances are typed errors; no NaN ever escapes")
    func badInput() throws {
        var t = try Self.tracker()
        #expect(throws: TrackingError.nonFiniteInput(field: "RSSIMeasurement.rssi")) {
            try t.update(RSSIMeasurement(time: 1, beaconPosition: Self.beacons[0], model: Self.model, rssi: .nan))
        }
        #expect(throws: TrackingError.nonFiniteInput(field: "time")) { try t.predict(to: .infinity) }
        #expect(throws: TrackingError.implausibleRSSI(3)) {
            try t.update(RSSIMeasurement(time: 1, beaconPosition: Self.beacons[0], model: Self.model, rssi: 3))
        }
        #expect(throws: TrackingError.nonFiniteInput(field: "PositionMeasurement.position")) {
            try t.update(PositionMeasurement(time: 1, x: .nan, y: 0, covarianceXX: 1, covarianceYY: 1))
        }
        #expect(throws: TrackingError.invalidCovariance(xx: 1, xy: 2, yy: 1)) {
            try t.update(PositionMeasurement(time: 1, x: 0, y: 0, covarianceXX: 1, covarianceXY: 2, covarianceYY: 1))
        }
        #expect(throws: TrackingError.invalidPathLossModel(PathLossModel(measuredPower: -59, exponent: 2, sigma: 0))) {
            try t.update(
                RSSIMeasurement(
                    time: 1, beaconPosition: Self.beacons[0],
                    model: PathLossModel(measuredPower: -59, exponent: 2, sigma: 0), rssi: -60))
        }
        #expect(throws: TrackingError.invalidConfiguration(field: "accelerationDensity", value: -1)) {
            _ = try Self.tracker(TrackerConfiguration(accelerationDensity: -1))
        }
        // A sample exactly under a beacon (d = vertical offset only) and at the beacon itself.
        try t.update(
            RSSIMeasurement(time: 1, beaconPosition: Point3D(x: 10, y: 8, z: 1.2), model: Self.model, rssi: -40))
        try t.update(
            RSSIMeasurement(
                time: 1.1, beaconPosition: Point3D(x: t.state[0], y: t.state[1], z: 2.6),
                model: Self.model, rssi: -50))
        #expect(t.estimate.position.x.isFinite && t.estimate.position.y.isFinite && t.estimate.accuracy.isFinite)
        #expect(t.estimate.accuracy > 0)
    }

    @Test("The outline constraint keeps the estimate inside the floor")
    func outlineConstraint() throws {
        let outline = Polygon([Point2D(x: 0, y: 0), Point2D(x: 24, y: 0), Point2D(x: 24, y: 16), Point2D(x: 0, y: 16)])
        var t = try Self.tracker(at: Point2D(x: 22, y: 8), sigma: 0.5, TrackerConfiguration(outline: outline))
        // Fixes walking east through the wall at 1.5 m/s.
        for k in 1...6 {
            try t.update(
                PositionMeasurement(time: Double(k), position: Point2D(x: 22 + 1.5 * Double(k), y: 8), sigma: 0.5))
            #expect(outline.contains(t.estimate.position))
            try t.predict(to: Double(k) + 0.5)
            #expect(outline.contains(t.estimate.position))
        }
        #expect(t.estimate.velocity.x <= 1e-12)  // the outward component is removed
        var free = try Self.tracker(at: Point2D(x: 22, y: 8), sigma: 0.5)
        for k in 1...6 {
            try free.update(
                PositionMeasurement(time: Double(k), position: Point2D(x: 22 + 1.5 * Double(k), y: 8), sigma: 0.5))
        }
        #expect(!outline.contains(free.estimate.position))  // the test would catch a missing constraint
    }

    @Test("Changing floors keeps x, y, zeroes the velocity and inflates the covariance")
    func floorChange() throws {
        var t = try KalmanTracker(
            first: PositionMeasurement(time: 0, position: Point2D(x: 3, y: 4), sigma: 0.5, level: 0))
        try t.update(PositionMeasurement(time: 1, position: Point2D(x: 4, y: 4), sigma: 0.5, level: 0))
        let before = t.estimate
        try t.changeLevel(to: 1, elevation: 3.5, outline: nil, at: 1)
        #expect(t.level == 1 && t.floorElevation == 3.5)
        #expect(t.estimate.position == before.position)
        #expect(t.estimate.velocity == .zero)
        #expect(t.estimate.covarianceXX >= 9 && t.estimate.covarianceYY >= 9)
    }

    @Test("Epoch update equals a sequence of single updates in the linear limit and never throws on empty")
    func epochUpdate() throws {
        var t = try Self.tracker()
        #expect(try t.update([RSSIMeasurement](), at: 1) == .accepted(mahalanobisSquared: 0))
        #expect(t.time == 1)
        let samples = Self.beacons.enumerated().map { i, b in
            RSSIMeasurement(
                time: 1 + Double(i) * 0.1, beaconPosition: b, model: Self.model,
                rssi: Self.model.expectedRSSI(atDistance: Point3D(x: 10, y: 8, z: 1.2).distance(to: b)))
        }
        var batch = t, single = t
        try batch.update(samples, at: 2)
        for s in samples { try single.update(s) }
        try single.predict(to: 2)
        // Noise-free samples at the true position: both stay near it and agree closely.
        #expect(batch.estimate.position.distance(to: Point2D(x: 10, y: 8)) < 0.3)
        #expect(batch.estimate.position.distance(to: single.estimate.position) < 0.3)
        #expect(abs(batch.estimate.accuracy - single.estimate.accuracy) < 0.1)
        #expect(throws: TrackingError.timestampBeforeState(time: 2.5, stateTime: 3)) {
            try batch.update(
                [RSSIMeasurement(time: 3, beaconPosition: Self.beacons[0], model: Self.model, rssi: -70)], at: 2.5)
        }
    }
}
