import BeaconModel
import Foundation
import LinearAlgebra
import Ranging
import TestSupport
import Testing

@testable import Trilateration

/// The fallback that takes evidence from the beacons not heard
/// (``TrilaterationSolver/Fallback/detectionPosterior``) and the detection curve it learns
/// (``DetectionScans``, ``DetectionModel``).
@Suite struct DetectionPosteriorTests {
    static let tau = 10.0

    static func solver(
        _ fallback: TrilaterationSolver.Fallback, model: DetectionModel?, beacons: [Point3D] = Scene.anchors
    ) -> TrilaterationSolver {
        var configuration = TrilaterationSolver.Configuration(outline: Scene.outline)
        configuration.commonOffsetSigma = tau
        configuration.fallback = fallback
        configuration.detection = model
        configuration.detectionBeacons = beacons
        return TrilaterationSolver(configuration: configuration)
    }

    /// The posterior mean and √E‖p − mean‖² by brute force, independent of the solver's
    /// closed forms: 0.8-m cells, Δ summed on a 2-dB grid within ±40 dB under its N(0, τ²)
    /// prior, u on a grid of ψ/4 within ±5ψ under N(0, ψ²), every beacon's outcome from the
    /// logistic directly.
    static func reference(
        _ heard: [BeaconObservation], model m: DetectionModel, beacons: [Point3D]
    ) -> (mean: Point2D, spread: Double) {
        let h = 0.8
        var logs: [Double] = [], points: [(Double, Double)] = []
        let isHeard = beacons.map { b in heard.contains { $0.position == b } }
        for i in 0..<Int((24 / h).rounded()) {
            for j in 0..<Int((16 / h).rounded()) {
                let x = (Double(i) + 0.5) * h, y = (Double(j) + 0.5) * h
                let p = Point3D(x: x, y: y, z: Scene.receiverHeight)
                let residuals = heard.map {
                    $0.meanRSSI - $0.model.expectedRSSI(atDistance: max(p.distance(to: $0.position), 0.01))
                }
                let lnd = beacons.map { log(max(p.distance(to: $0), 0.01)) }
                var terms: [Double] = []
                for delta in stride(from: -40.0, through: 40, by: 2) {
                    var readings = -0.5 * delta * delta / (tau * tau)
                    for (k, r) in residuals.enumerated() {
                        let sigma = heard[k].model.sigma
                        readings -= 0.5 * (r - delta) * (r - delta) / (sigma * sigma)
                    }
                    for step in -20...20 {
                        let u = Double(step) / 4 * m.scanSpread
                        var l = readings - 0.5 * u * u / (m.scanSpread * m.scanSpread)
                        for (k, heardIt) in isHeard.enumerated() {
                            let z = m.logOdds(logDistance: lnd[k], offset: delta) + u
                            l += heardIt ? -log1p(exp(-z)) : -log1p(exp(z))
                        }
                        terms.append(l)
                    }
                }
                let peak = terms.max()!
                logs.append(peak + log(terms.reduce(0) { $0 + exp($1 - peak) }))
                points.append((x, y))
            }
        }
        let (mean, spread) = Scene.moments(logs: logs, points: points)
        // Each cell's own spread (h²/12 per axis) as the solver counts it.
        return (mean, (spread + h * h / 6).squareRoot())
    }

    /// The second model hears most beacons within 10 m (P 0.86 there for a typical scan): a
    /// scan that misses seven of them has a propensity u far below its prior, many of the
    /// prior's standard deviations out, where quadrature centred on the prior would miss it.
    @Test(
        "one to three beacons: the mean and spread agree with a brute-force integration over Δ and u",
        arguments: [
            DetectionModel(intercept: 2, logDistanceSlope: -1.2, offsetSlope: 0.08, scanSpread: 0.9),
            DetectionModel(intercept: 3, logDistanceSlope: -0.5, offsetSlope: 0.05, scanSpread: 1.5)
        ])
    func agreesWithBruteForce(model: DetectionModel) throws {
        var g = SeededGenerator(seed: 21)
        var solver = Self.solver(.detectionPosterior, model: model)
        for count in [1, 3] {
            let truth = Scene.randomPoint(&g)
            var noise: SeededGenerator? = SeededGenerator(seed: g.next())
            let heard = Array(Scene.observe(at: truth, count: 1, generator: &noise).shuffled(using: &g).prefix(count))
            let fix = try solver.solve(heard)
            let expected = Self.reference(heard, model: model, beacons: Scene.anchors)
            // 0.25-m cells against 0.8-m ones, and M(p, v) interpolated from 0.25 steps of v: a
            // few per cent of a spread of metres.
            #expect(fix.position.planar.distance(to: expected.mean) < 0.03 * expected.spread + 0.05)
            #expect(abs(fix.accuracy - expected.spread) < 0.03 * expected.spread + 0.05)
        }
    }

    /// Scans where hearing a beacon means being near it (heard when the reading, with the phone's
    /// offset N(0, 5²) and 4 dB shadowing, is above −80 dBm: about 11 m for a typical phone).
    /// The curve is learned from the scans of four or more beacons at their true positions plus
    /// 1 m of noise and their offset plus 2 dB (what a determined fix gives); the scans of one to
    /// three beacons are then placed.
    @Test("where being heard means being near: beats the outline posterior and is no worse than the centroid")
    func heardMeansNear() throws {
        var g = SeededGenerator(seed: 31)
        var learned = DetectionScans()
        var fallbacks: [(truth: Point3D, heard: [BeaconObservation])] = []
        for n in 0..<1200 {
            let truth = Point3D(
                x: Double.random(in: 0...24, using: &g), y: Double.random(in: 0...16, using: &g),
                z: Scene.receiverHeight)
            let offset = g.gaussian(sigma: 5)
            var noise: SeededGenerator? = SeededGenerator(seed: g.next())
            var readings = Scene.observe(at: truth, count: 1, generator: &noise)
            for k in readings.indices { readings[k].meanRSSI += offset }
            let heard = readings.filter { $0.meanRSSI > -80 }
            if heard.count >= 4 {
                let fix = Point3D(x: truth.x + g.gaussian(), y: truth.y + g.gaussian(), z: truth.z)
                learned.record(
                    DetectionScans.Scan(
                        key: UInt64(n), offset: offset + g.gaussian(sigma: 2),
                        logDistances: Scene.anchors.map { log(fix.distance(to: $0)) },
                        heard: readings.map { $0.meanRSSI > -80 }))
            } else if !heard.isEmpty {
                fallbacks.append((truth, heard))
            }
        }
        let model = try learned.fit().get()
        #expect(model.logDistanceSlope < -1)
        var detection = Self.solver(.detectionPosterior, model: model)
        var outline = Self.solver(.outlinePosterior, model: nil)
        var centroid = Self.solver(.weightedCentroid, model: nil)
        var squared = (detection: 0.0, outline: 0.0, centroid: 0.0)
        for scan in fallbacks.prefix(200) {
            squared.detection += pow(Scene.horizontalError(try detection.solve(scan.heard), scan.truth), 2)
            squared.outline += pow(Scene.horizontalError(try outline.solve(scan.heard), scan.truth), 2)
            squared.centroid += pow(Scene.horizontalError(try centroid.solve(scan.heard), scan.truth), 2)
        }
        #expect(fallbacks.count >= 200)
        #expect(squared.detection < 0.8 * squared.outline)
        #expect(squared.detection < squared.centroid)
    }

    @Test(
        "a starting fix refined by the posterior keeps the centroid prior's weight, which its covariance includes (a track takes it out)"
    )
    func refinedKeepsPriorWeight() throws {
        let model = DetectionModel(intercept: 1, logDistanceSlope: -1, offsetSlope: 0.05, scanSpread: 0.5)
        var solver = Self.solver(.detectionPosterior, model: model)
        solver.configuration.centroidPriorScale = 1
        let heard = Array(Scene.noiseFree(at: Point3D(x: 6, y: 5, z: 1.2)).prefix(5))
        var fix = try solver.solve(heard)
        #expect(fix.status.isDetermined)
        let weight = fix.centroidPriorWeight
        #expect(weight > 0)
        let solved = fix
        solver.refineWithDetectionPosterior(heard, offsetTakenOut: 0, into: &fix)
        #expect(fix.position != solved.position && fix.covariance != solved.covariance)
        // The posterior was formed with the same prior, from the same readings: the weight stays,
        // so that the information it adds is not counted as the readings' own.
        #expect(fix.centroidPriorWeight == weight)
        // Taken out, the variances grow (the information matrix loses w in each axis).
        let c = fix.covariance
        let d = c.xx * c.yy - c.xy * c.xy
        let inverse = (xx: c.yy / d, xy: -c.xy / d, yy: c.xx / d)
        let det = (inverse.xx - weight) * (inverse.yy - weight) - inverse.xy * inverse.xy
        #expect(d > 0 && det > 0)
        #expect((inverse.yy - weight) / det > c.xx && (inverse.xx - weight) / det > c.yy)
    }

    @Test("without a model or the level's beacons, and without an outline, the fallback stays the weighted centroid")
    func needsAModelAndBeacons() throws {
        let heard = Array(Scene.noiseFree(at: Point3D(x: 6, y: 5, z: 1.2)).prefix(2))
        var centroid = Self.solver(.weightedCentroid, model: nil)
        let expected = try centroid.solve(heard)
        let model = DetectionModel(intercept: 1, logDistanceSlope: -1, offsetSlope: 0.05, scanSpread: 0.5)
        var noModel = Self.solver(.detectionPosterior, model: nil)
        var noBeacons = Self.solver(.detectionPosterior, model: model, beacons: [])
        #expect(try noModel.solve(heard).position == expected.position)
        #expect(try noBeacons.solve(heard).position == expected.position)
        var configuration = TrilaterationSolver.Configuration()
        configuration.fallback = .detectionPosterior
        configuration.detection = model
        configuration.detectionBeacons = Scene.anchors
        var noOutline = TrilaterationSolver(configuration: configuration)
        #expect(try noOutline.solve(heard).position == expected.position)
        var with = Self.solver(.detectionPosterior, model: model)
        #expect(try with.solve(heard).position != expected.position)
    }

    @Test("the fallback variance factor widens both posteriors, and 1 changes nothing")
    func varianceFactorWidens() throws {
        let heard = Array(Scene.noiseFree(at: Point3D(x: 8, y: 6, z: 1.2)).prefix(3))
        let model = DetectionModel(intercept: 2, logDistanceSlope: -1.2, offsetSlope: 0.08, scanSpread: 0.9)
        for fallback in [TrilaterationSolver.Fallback.outlinePosterior, .detectionPosterior] {
            var plain = Self.solver(fallback, model: model)
            var one = Self.solver(fallback, model: model)
            one.configuration.fallbackVarianceFactor = 1
            var wide = Self.solver(fallback, model: model)
            wide.configuration.fallbackVarianceFactor = 4
            let a = try plain.solve(heard), b = try one.solve(heard), c = try wide.solve(heard)
            #expect(a == b)
            // The room (prior spread about 8.3 m) bounds the widening: about a metre here.
            #expect(c.accuracy > a.accuracy + 0.5, "\(fallback)")
        }
        var bad = Self.solver(.detectionPosterior, model: model)
        bad.configuration.fallbackVarianceFactor = 0
        #expect(throws: TrilaterationError.self) { try bad.solve(heard) }
    }

    @Test("extreme models and readings never give NaN, and the mean stays in the outline")
    func extremeInputStaysFinite() throws {
        var g = SeededGenerator(seed: 41)
        let models = [
            DetectionModel(intercept: 40, logDistanceSlope: -30, offsetSlope: 5, scanSpread: 0.01),
            DetectionModel(intercept: -40, logDistanceSlope: 0, offsetSlope: 0, scanSpread: 20),
            DetectionModel(intercept: 0, logDistanceSlope: 0, offsetSlope: 0, scanSpread: 0.01)
        ]
        for model in models {
            var solver = Self.solver(.detectionPosterior, model: model)
            for _ in 0..<10 {
                var heard = Array(
                    Scene.noiseFree(at: Scene.randomPoint(&g)).shuffled(using: &g).prefix(
                        Int.random(in: 1...3, using: &g)))
                for k in heard.indices { heard[k].meanRSSI = [-130, -100, -20, -1][Int.random(in: 0..<4, using: &g)] }
                let fix = try solver.solve(heard)
                #expect(fix.position.x.isFinite && fix.position.y.isFinite && fix.accuracy.isFinite)
                #expect(Scene.outline.contains(fix.position.planar))
            }
        }
    }

    // MARK: The curve

    /// Scans drawn from a known model: `beacons` per scan at distances uniform in ln d over
    /// 0.5…30 m, offsets N(0, 5²), a propensity N(0, ψ²) per scan.
    static func scanList(
        from m: DetectionModel, count: Int, beacons: Int = 12, seed: UInt64
    ) -> [DetectionScans.Scan] {
        var g = SeededGenerator(seed: seed)
        return (0..<count).map { n in
            let offset = g.gaussian(sigma: 5), u = g.gaussian(sigma: m.scanSpread)
            var lnd: [Double] = [], heard: [Bool] = []
            for _ in 0..<beacons {
                let l = Double.random(in: log(0.5)...log(30), using: &g)
                let p = 1 / (1 + exp(-(m.logOdds(logDistance: l, offset: offset) + u)))
                lnd.append(l)
                heard.append(Double.random(in: 0..<1, using: &g) < p)
            }
            return DetectionScans.Scan(
                key: UInt64(n) &* 0x9E37_79B9_7F4A_7C15, offset: offset, logDistances: lnd, heard: heard)
        }
    }

    static func scans(from m: DetectionModel, count: Int, beacons: Int = 12, seed: UInt64) -> DetectionScans {
        var scans = DetectionScans()
        for scan in scanList(from: m, count: count, beacons: beacons, seed: seed) { scans.record(scan) }
        return scans
    }

    /// 1,024 scans of 8 beacons. The spread of such fits over 20 seeds (an independent fit of
    /// the same model, Scripts/Research/fallback-study.py's): a 0.06, b 0.035, c 0.009, ψ 0.05 for the
    /// first model; for the second, whose ψ lies at its bound, ψ comes out 0.07 ± 0.09. The
    /// tolerances are four of those.
    @Test("the fit recovers the model the scans were drawn from, with and without a scan propensity")
    func recoversKnownModels() throws {
        for truth in [
            DetectionModel(intercept: 2, logDistanceSlope: -1.5, offsetSlope: 0.1, scanSpread: 0.8),
            DetectionModel(intercept: 1, logDistanceSlope: -0.5, offsetSlope: 0.05, scanSpread: 0.01)
        ] {
            let fitted = try Self.scans(from: truth, count: 1024, beacons: 8, seed: 7).fit().get()
            #expect(abs(fitted.intercept - truth.intercept) < 0.25)
            #expect(abs(fitted.logDistanceSlope - truth.logDistanceSlope) < 0.15)
            #expect(abs(fitted.offsetSlope - truth.offsetSlope) < 0.04)
            #expect(abs(fitted.scanSpread - truth.scanSpread) < (truth.scanSpread > 0.1 ? 0.2 : 0.43))
        }
    }

    @Test("the fit keeps to physics: a curve rising with distance or falling with the offset is held at 0")
    func constrainedToPhysics() throws {
        let rising = try Self.scans(
            from: DetectionModel(intercept: -1, logDistanceSlope: 0.8, offsetSlope: 0.05, scanSpread: 0.3),
            count: 400, beacons: 8, seed: 3
        ).fit().get()
        #expect(rising.logDistanceSlope == 0)
        let falling = try Self.scans(
            from: DetectionModel(intercept: 1, logDistanceSlope: -1, offsetSlope: -0.2, scanSpread: 0.3),
            count: 400, beacons: 8, seed: 4
        ).fit().get()
        #expect(falling.offsetSlope == 0)
        #expect(falling.logDistanceSlope < 0)
    }

    @Test("too little to learn from is said, not fitted")
    func shortfalls() {
        var all = DetectionScans()
        for n in 0..<50 {
            all.record(
                DetectionScans.Scan(key: UInt64(n), offset: 0, logDistances: [0, 1, 2], heard: [true, true, true]))
        }
        #expect(throws: DetectionScans.Shortfall.tooFewMissed(0)) { try all.fit().get() }
        let few = Self.scans(
            from: DetectionModel(intercept: 0, logDistanceSlope: -1, offsetSlope: 0, scanSpread: 0.5), count: 10,
            seed: 1)
        #expect(throws: DetectionScans.Shortfall.tooFewFixes(10)) { try few.fit().get() }
    }

    /// `count` scans of four beacons from one model, and all of them recorded in order.
    static func recorded(count: Int, seed: UInt64) -> ([DetectionScans.Scan], DetectionScans) {
        let model = DetectionModel(intercept: 1.5, logDistanceSlope: -1, offsetSlope: 0.05, scanSpread: 0.6)
        let list = scanList(from: model, count: count, beacons: 4, seed: seed)
        var whole = DetectionScans()
        for scan in list { whole.record(scan) }
        return (list, whole)
    }

    @Test("the sample is bounded and the same in any order or split: the same model bit for bit")
    func sampleIndependentOfOrder() throws {
        let (list, whole) = Self.recorded(count: 9000, seed: 9)
        #expect(whole.fixes == 9000)
        #expect(whole.sample.count == DetectionScans.capacity)
        // The same scans in another order, and split between two recorders (one of which prunes).
        var g = SeededGenerator(seed: 10)
        var reordered = DetectionScans(), first = DetectionScans(), second = DetectionScans()
        for scan in list.shuffled(using: &g) { reordered.record(scan) }
        for (k, scan) in list.enumerated() {
            if k % 3 == 0 { first.record(scan) } else { second.record(scan) }
        }
        second.add(first)
        #expect(second.fixes == 9000)
        #expect(second.sample == whole.sample)
        #expect(reordered.sample == whole.sample)
        #expect(try reordered.fit().get() == whole.fit().get())
    }

    @Test("a scan the sample cannot keep is only counted: the same sample, far fewer scans built")
    func passedOverScans() throws {
        let (list, whole) = Self.recorded(count: 20000, seed: 11)
        // Recorded as the engine records (without building a scan), in two halves merged; a
        // scan's beacons are read only when it can enter its half's sample.
        var built = 0, builtLast = 0
        var halves = [DetectionScans(), DetectionScans()]
        for (k, scan) in list.enumerated() {
            var read = false
            let keeps = halves[k % 2].keeps(key: scan.key)
            halves[k % 2].record(key: scan.key, offset: scan.offset, beacons: scan.heard.count) {
                read = true
                return (scan.logDistances[$0], scan.heard[$0])
            }
            if read {
                built += 1
                if k >= 15000 { builtLast += 1 }
            }
            #expect(read == keeps)
        }
        halves[0].add(halves[1])
        #expect(halves[0].fixes == 20000)
        #expect(halves[0].sample == whole.sample)
        // Past its first prune (at 4,096 scans) a recorder builds only scans whose key is at
        // most its sample's largest at the last prune, a share that falls prune by prune: the
        // same rule in Python on 20,000 random keys built 13,215 scans, 1,583 of the last 5,000.
        #expect(built < 14000, "\(built) of 20000 scans built")
        #expect(builtLast < 2000, "\(builtLast) of the last 5000 scans built")
        // After the merge the cutoff is the lower of the two: a key above it is refused.
        let largest = try #require(whole.sample.last?.key)
        #expect(!halves[0].keeps(key: UInt64.max) && halves[0].keeps(key: largest))
    }

    @Test("a fit started from an earlier curve reaches the same maximum")
    func warmStart() throws {
        let truth = DetectionModel(intercept: 2, logDistanceSlope: -1.5, offsetSlope: 0.1, scanSpread: 0.8)
        let scans = Self.scans(from: truth, count: 600, beacons: 8, seed: 12)
        let cold = try scans.fit().get()
        for start in [
            truth, DetectionModel(intercept: -1, logDistanceSlope: -0.2, offsetSlope: 0.3, scanSpread: 3)
        ] {
            let warm = try scans.fit(from: start).get()
            #expect(abs(warm.intercept - cold.intercept) < 1e-4)
            #expect(abs(warm.logDistanceSlope - cold.logDistanceSlope) < 1e-4)
            #expect(abs(warm.offsetSlope - cold.offsetSlope) < 1e-5)
            #expect(abs(warm.scanSpread - cold.scanSpread) < 1e-4)
        }
    }

    @Test("a configuration written before the detection settings existed still reads")
    func olderConfigurationReads() throws {
        var configuration = TrilaterationSolver.Configuration(outline: Scene.outline)
        configuration.commonOffsetSigma = 10
        let data = try JSONEncoder().encode(configuration)
        var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        for key in ["fallback", "detection", "detectionBeacons", "centroidPriorBeacons", "fallbackVarianceFactor"] {
            object[key] = nil
        }
        let older = try JSONSerialization.data(withJSONObject: object)
        #expect(try JSONDecoder().decode(TrilaterationSolver.Configuration.self, from: older) == configuration)
        var withModel = configuration
        withModel.fallback = .detectionPosterior
        withModel.detection = DetectionModel(intercept: 1, logDistanceSlope: -1, offsetSlope: 0.1, scanSpread: 0.5)
        withModel.detectionBeacons = Scene.anchors
        withModel.fallbackVarianceFactor = 1.6
        let again = try JSONDecoder().decode(
            TrilaterationSolver.Configuration.self, from: JSONEncoder().encode(withModel))
        #expect(again == withModel)
    }
}
