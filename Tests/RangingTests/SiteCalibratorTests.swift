import BeaconModel
import Foundation
import TestSupport
import Testing

@testable import Ranging

@Suite("Site calibrator: learning path-loss models from positions and RSSI")
struct SiteCalibratorTests {
    static let uuid = UUID(uuidString: "F7826DA6-4FA2-4E98-8024-BC5B71E0893E")!
    static let beacon = BeaconIdentity(uuid: uuid, major: 1, minor: 1)
    static let position = Point3D(x: 0, y: 0, z: 2.5)
    let truth = PathLossModel(measuredPower: -52, exponent: 2.4, sigma: 4)

    /// A calibrator for one beacon at the origin with the generic prior centred on −59 dBm, n = 2.
    func calibrator(_ settings: SiteCalibrator.Settings = .init()) -> SiteCalibrator {
        SiteCalibrator(
            beacons: [
                (
                    Self.beacon, Self.position,
                    PathLossPrior(centredOn: PathLossModel(measuredPower: -59, exponent: 2))
                )
            ],
            settings: settings)
    }

    /// Receivers at 1.2 m height spread over a 20 m square, exactly known (zero covariance).
    func feed(
        _ c: inout SiteCalibrator, count: Int, noise: Double, seed: UInt64, offset: Double = 0,
        outliers: Int = 0, covariance: Double = 0
    ) {
        var rng = SeededGenerator(seed: seed)
        for i in 0..<count {
            let receiver = Point3D(
                x: Double.random(in: -10...10, using: &rng), y: Double.random(in: -10...10, using: &rng), z: 1.2)
            var rssi =
                truth.expectedRSSI(atDistance: receiver.distance(to: Self.position)) + offset
                + rng.gaussian(sigma: noise)
            if i < outliers { rssi -= 25 }
            c.observe(
                Self.beacon, rssi: rssi, receiver: receiver, xx: covariance, xy: 0, yy: covariance,
                deviceOffset: offset)
        }
    }

    @Test("noise-free samples at known positions give the true P₀ and n (the prior's pull is below 0.01)")
    func noiseFree() throws {
        var c = calibrator()
        feed(&c, count: 500, noise: 0, seed: 1)
        let e = try #require(c.estimates.first)
        #expect(e.source == .traffic)
        #expect(abs(e.model.measuredPower - truth.measuredPower) < 0.01)
        #expect(abs(e.model.exponent - truth.exponent) < 0.01)
        #expect(e.count == 500)
    }

    @Test("with σ = 4 dB and 2000 samples the estimate is within 3 standard errors, and σ is learned")
    func noisy() throws {
        var c = calibrator()
        feed(&c, count: 2000, noise: 4, seed: 2)
        let e = try #require(c.estimates.first)
        #expect(abs(e.model.measuredPower - truth.measuredPower) < 3 * e.measuredPowerStandardError)
        #expect(abs(e.model.exponent - truth.exponent) < 3 * e.exponentStandardError)
        #expect(abs(e.model.sigma - 4) < 0.4)
        // Least squares with 2000 samples over 1.3–14 m: se(n) ≈ σ/√m/sd(x) ≈ 0.03.
        #expect(e.exponentStandardError > 0.015 && e.exponentStandardError < 0.06)
        // x = −10 log₁₀ d is negative beyond 1 m, so a higher P₀ goes with a higher n: the
        // direction data at one typical distance cannot tell apart.
        #expect(e.correlation > 0)
    }

    @Test("fewer samples than the minimum keep the prior's values and say so")
    func fewSamples() throws {
        var c = calibrator()
        feed(&c, count: 29, noise: 4, seed: 3)
        let e = try #require(c.estimates.first)
        #expect(e.source == .plan)
        #expect(e.model.measuredPower == -59 && e.model.exponent == 2)
        #expect(e.measuredPowerStandardError == 8 && e.exponentStandardError == 0.5)
        #expect(e.count == 29)
    }

    @Test(
        "the prior's width sets its say: on the same 40 samples a 3× narrower prior keeps the estimate nearer its mean")
    func priorWeight() throws {
        var wide = calibrator()
        var narrow = SiteCalibrator(beacons: [
            (
                Self.beacon, Self.position,
                PathLossPrior(
                    measuredPower: -59, measuredPowerSigma: 8 / 3,
                    exponent: 2, exponentSigma: 0.5 / 3)
            )
        ])
        feed(&wide, count: 40, noise: 4, seed: 4)
        feed(&narrow, count: 40, noise: 4, seed: 4)
        let w = try #require(wide.estimates.first), n = try #require(narrow.estimates.first)
        // Ridge shrinkage: the distance from the prior mean (in the wide prior's σ) falls as the
        // prior narrows, and so does the posterior spread.
        func norm(_ e: LearnedPathLoss) -> Double {
            let p = (e.model.measuredPower + 59) / 8, n = (e.model.exponent - 2) / 0.5
            return (p * p + n * n).squareRoot()
        }
        #expect(norm(n) < norm(w))
        #expect(n.exponentStandardError < w.exponentStandardError)
        #expect(n.measuredPowerStandardError < w.measuredPowerStandardError)
    }

    @Test("a device's offset is taken out: the same readings 8 dB high with deviceOffset 8 learn the same model")
    func deviceOffset() throws {
        var plain = calibrator(), shifted = calibrator()
        feed(&plain, count: 800, noise: 4, seed: 5)
        feed(&shifted, count: 800, noise: 4, seed: 5, offset: 8)
        let a = try #require(plain.estimates.first), b = try #require(shifted.estimates.first)
        #expect(abs(a.model.measuredPower - b.model.measuredPower) < 1e-9)
        #expect(abs(a.model.exponent - b.model.exponent) < 1e-9)
    }

    @Test(
        "10 % of samples 25 dB low (a body in the way): the Huber passes stay within 1.5 dB and 0.15, nearer the truth than a plain fit"
    )
    func outliers() throws {
        func learn(threshold: Double) throws -> LearnedPathLoss {
            var c = calibrator(.init(huberThreshold: threshold))
            for pass in 0..<4 {
                c.clearStatistics()
                feed(&c, count: 2000, noise: 4, seed: 6, outliers: 200)
                if pass < 3 { c.adoptEstimates() }
            }
            return try #require(c.estimates.first)
        }
        let robust = try learn(threshold: 2), plain = try learn(threshold: 1e9)
        // Huber's bias for one-sided contamination is about ε c σ = 0.1 · 2 · 4 = 0.8 dB.
        #expect(abs(robust.model.measuredPower - truth.measuredPower) < 1.5)
        #expect(abs(robust.model.exponent - truth.exponent) < 0.15)
        // The plain fit takes more of the contamination (up to ε · 25 dB = 2.5 dB between P₀ and n).
        #expect(
            abs(robust.model.measuredPower - truth.measuredPower) < abs(plain.model.measuredPower - truth.measuredPower)
        )
        #expect(abs(robust.model.exponent - truth.exponent) < abs(plain.model.exponent - truth.exponent))
    }

    @Test("uncertain positions weigh less: a 3-m position spread halves the effective count")
    func positionWeight() throws {
        var sure = calibrator(), unsure = calibrator()
        feed(&sure, count: 500, noise: 4, seed: 7)
        feed(&unsure, count: 500, noise: 4, seed: 7, covariance: 4.5)
        let s = try #require(sure.estimates.first), u = try #require(unsure.estimates.first)
        #expect(s.effectiveCount > 450)  // only the Huber weights thin it
        #expect(u.effectiveCount < 0.75 * s.effectiveCount)
        #expect(u.count == s.count)
    }

    @Test(
        "σ learned at positions fixed from the same readings is not shrunk: 4 beacons, true σ 3 dB, within 10 % (without the leverage 20 % low or worse)"
    )
    func leverageCorrectsSigma() throws {
        // Each scan hears the four beacons once; its position is the least-squares fix of those
        // readings (known models, offset 0), with covariance σ²(JᵀJ)⁻¹. Its residuals then keep
        // 2 of 4 degrees of freedom: σ² from their plain mean would be about 0.5 × 9 dB².
        let truth = PathLossModel(measuredPower: -59, exponent: 2, sigma: 3)
        let anchors = [(0.0, 0.0), (12.0, 0.0), (12.0, 12.0), (0.0, 12.0)]
        let beacons = anchors.enumerated().map { k, a in
            (
                BeaconIdentity(uuid: Self.uuid, major: 2, minor: UInt16(k + 1)), Point3D(x: a.0, y: a.1, z: 2.5),
                PathLossPrior(centredOn: PathLossModel(measuredPower: -59, exponent: 2))
            )
        }
        var rng = SeededGenerator(seed: 21)
        var scans: [(readings: [Double], truth: Point3D)] = []
        for _ in 0..<1000 {
            let p = Point3D(
                x: Double.random(in: 1...11, using: &rng), y: Double.random(in: 1...11, using: &rng), z: 1.2)
            let readings = beacons.map {
                truth.expectedRSSI(atDistance: p.distance(to: $0.1)) + rng.gaussian(sigma: truth.sigma)
            }
            scans.append((readings, p))
        }
        var learned = SiteCalibrator(beacons: beacons), plain = learned
        for _ in 0..<4 {
            learned.clearStatistics()
            plain.clearStatistics()
            for scan in scans {
                // Gauss–Newton from the true position (the fix nearest it).
                var x = scan.truth.x, y = scan.truth.y
                var a = (0.0, 0.0, 0.0)
                for _ in 0..<8 {
                    a = (0, 0, 0)
                    var b = (0.0, 0.0)
                    for (k, beacon) in beacons.enumerated() {
                        let dx = x - beacon.1.x, dy = y - beacon.1.y, dz = 1.2 - beacon.1.z
                        let d2 = dx * dx + dy * dy + dz * dz
                        let gx = -truth.logSlope * dx / d2, gy = -truth.logSlope * dy / d2
                        let r = scan.readings[k] - truth.expectedRSSI(atDistance: d2.squareRoot())
                        a = (a.0 + gx * gx, a.1 + gx * gy, a.2 + gy * gy)
                        b = (b.0 + gx * r, b.1 + gy * r)
                    }
                    let det = a.0 * a.2 - a.1 * a.1
                    x += (a.2 * b.0 - a.1 * b.1) / det
                    y += (a.0 * b.1 - a.1 * b.0) / det
                }
                let det = a.0 * a.2 - a.1 * a.1
                let s2 = learned.beacons[0].model.sigma * learned.beacons[0].model.sigma
                let receiver = Point3D(x: x, y: y, z: 1.2)
                for (k, beacon) in beacons.enumerated() {
                    learned.observe(
                        beacon.0, rssi: scan.readings[k], receiver: receiver,
                        xx: s2 * a.2 / det, xy: -s2 * a.1 / det, yy: s2 * a.0 / det)
                    // The same position taken as surveyed: no leverage.
                    plain.observe(beacon.0, rssi: scan.readings[k], receiver: receiver, xx: 0, xy: 0, yy: 0)
                }
            }
            learned.adoptEstimates()
            plain.adoptEstimates()
        }
        let sigma = learned.estimates.map(\.model.sigma).reduce(0, +) / 4
        let shrunk = plain.estimates.map(\.model.sigma).reduce(0, +) / 4
        // 2,000 residual degrees of freedom give σ to about 2 % (1 SE); the leverage is the
        // linearised one, which the fixes' nonlinearity exceeds a little (measured: 3.19 dB).
        #expect(abs(sigma - 3) < 0.1 * 3, "mean learned σ \(sigma) dB")
        // Measured: 2.1 dB, near 3 √0.5.
        #expect(shrunk < 0.8 * 3, "mean σ without the leverage \(shrunk) dB")
        let leverage = learned.beacons.map { $0.statistics.leverage / $0.statistics.weight }
        // Two position coordinates over four readings: a mean leverage near 0.5.
        #expect(leverage.allSatisfy { 0.4 < $0 && $0 < 0.6 }, "\(leverage)")
        // A position said not to come from these readings counts none (the online learner's).
        var known = SiteCalibrator(beacons: beacons)
        known.observe(
            beacons[0].0, rssi: -70, receiver: Point3D(x: 5, y: 5, z: 1.2), xx: 0.5, xy: 0, yy: 0.5,
            positionFromReadings: false)
        known.observe(
            beacons[0].0, rssi: -70, receiver: Point3D(x: 5, y: 5, z: 1.2), xx: 0.5, xy: 0, yy: 0.5,
            deviceOffsetVariance: 4, positionFromReadings: false)
        let s2 = known.beacons[0].model.sigma * known.beacons[0].model.sigma
        let w = known.beacons[0].statistics.weight / 2
        #expect(abs(known.beacons[0].statistics.leverage - w * 4 / s2) < 1e-12)
    }

    @Test("statistics merge: two halves merged equal the whole, and the calibrator round-trips through JSON")
    func mergeAndCodable() throws {
        var whole = calibrator(), first = calibrator(), second = calibrator()
        feed(&whole, count: 300, noise: 4, seed: 8)
        feed(&first, count: 300, noise: 4, seed: 8)
        feed(&second, count: 300, noise: 4, seed: 9)
        feed(&whole, count: 300, noise: 4, seed: 9)
        first.merge(second)
        let a = try #require(whole.estimates.first), b = try #require(first.estimates.first)
        #expect(abs(a.model.measuredPower - b.model.measuredPower) < 1e-9)
        #expect(abs(a.model.exponent - b.model.exponent) < 1e-9)
        #expect(a.count == 600 && b.count == 600)
        let data = try JSONEncoder().encode(whole)
        var decoded = try JSONDecoder().decode(SiteCalibrator.self, from: data)
        #expect(decoded.estimates == whole.estimates)
        #expect(decoded.slot(of: Self.beacon) == 0)
        // A decoded calibrator goes on learning.
        let accepted = decoded.observe(
            Self.beacon, rssi: -70, receiver: Point3D(x: 3, y: 0, z: 1.2), xx: 0, xy: 0, yy: 0)
        #expect(accepted)
        #expect(decoded.beacons[0].statistics.count == 601)
        // Statistics saved before the leverage was kept decode with none.
        var statistics = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(whole.beacons[0].statistics)) as? [String: Any])
        #expect(statistics.removeValue(forKey: "leverage") != nil)
        let old = try JSONDecoder().decode(
            PathLossStatistics.self, from: JSONSerialization.data(withJSONObject: statistics))
        #expect(old.leverage == 0 && old.count == 600 && old.sumYY == whole.beacons[0].statistics.sumYY)
    }

    @Test("bad input is ignored, never NaN: unknown beacon, non-finite values, negative variance")
    func badInput() throws {
        var c = calibrator()
        let other = BeaconIdentity(uuid: Self.uuid, major: 9, minor: 9)
        let p = Point3D(x: 3, y: 0, z: 1.2)
        do {
            let accepted = c.observe(other, rssi: -70, receiver: p, xx: 0, xy: 0, yy: 0)
            #expect(!accepted)
        }
        do {
            let accepted = c.observe(Self.beacon, rssi: .nan, receiver: p, xx: 0, xy: 0, yy: 0)
            #expect(!accepted)
        }
        do {
            let accepted = c.observe(
                Self.beacon, rssi: -70, receiver: Point3D(x: .infinity, y: 0, z: 1), xx: 0, xy: 0, yy: 0)
            #expect(!accepted)
        }
        do {
            let accepted = c.observe(Self.beacon, rssi: -70, receiver: p, xx: -1, xy: 0, yy: 0)
            #expect(!accepted)
        }
        do {
            let accepted = c.observe(Self.beacon, rssi: -70, receiver: p, xx: 0, xy: 0, yy: 0, deviceOffset: .nan)
            #expect(!accepted)
        }
        // At the beacon itself the distance is clamped, not zero.
        do {
            let accepted = c.observe(Self.beacon, rssi: -40, receiver: Self.position, xx: 0, xy: 0, yy: 0)
            #expect(accepted)
        }
        let e = try #require(c.estimates.first)
        #expect(e.model.measuredPower.isFinite && e.model.exponent.isFinite && e.model.sigma.isFinite)
        #expect(c.pooledEstimate?.model.measuredPower.isFinite == true)
    }
}
