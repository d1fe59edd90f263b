import Foundation
import IndoorPositioning
import TestSupport
import Testing

/// The detection curve the engine learns from its own determined fixes as the input goes
/// (`Configuration.learnsDetection`, the default): when it fits, what its fallbacks report, and
/// that a sharded run learns the same.
@Suite("Engine detection learning")
struct EngineDetectionLearningTests {
    /// The hearing curve of the simulated scans: P(heard) = σ(4 − 2 ln d), d in metres.
    static let truth = (intercept: 4.0, slope: -2.0)

    /// `count` single scans of the default simulated room, one device each ("scan0000", … in
    /// name order), all at t = 0.5 s: scan k stands at a seeded point and hears each beacon with
    /// the probability of ``truth`` at its distance, once, with the walk's path-loss model and
    /// 4 dB of shadowing. Returns the samples and the scans' true positions.
    static func scans(count: Int, seed: UInt64) throws -> (site: SimulatedSite, samples: [RSSISample], truth: [Point2D])
    {
        let site = try SimulatedSite(seed: 1, configuration: SimulatedSite.walk(duration: 2))
        let c = site.walk.configuration
        var rng = SeededGenerator(seed: seed)
        var samples: [RSSISample] = []
        var positions: [Point2D] = []
        for k in 0..<count {
            let p = Point2D(
                x: Double.random(in: 1...(c.width - 1), using: &rng),
                y: Double.random(in: 1...(c.height - 1), using: &rng))
            positions.append(p)
            for (b, beacon) in site.walk.beacons.enumerated() {
                let d = Point3D(p, z: c.receiverHeight).distance(to: beacon)
                let heard = 1 / (1 + exp(-(truth.intercept + truth.slope * log(d))))
                guard Double.random(in: 0..<1, using: &rng) < heard else { continue }
                let rssi = c.model.expectedRSSI(atDistance: d) + rng.gaussian(sigma: 4)
                samples.append(
                    RSSISample(
                        timestamp: 0.5, identity: SimulatedSite.identity(b), rssi: rssi.rounded(),
                        device: String(format: "scan%04d", k)))
            }
        }
        return (site, samples, positions)
    }

    static func configuration(_ fallback: TrilaterationSolver.Fallback) -> PositioningEngine.Configuration {
        var configuration = PositioningEngine.Configuration()
        configuration.solver.fallback = fallback
        return configuration
    }

    @Test("single scans: fits on the schedule, centroids before the first, better fallbacks after it")
    func learnsAsItGoes() throws {
        let (site, samples, truth) = try Self.scans(count: 600, seed: 11)
        #expect(PositioningEngine.Configuration().learnsDetection)
        var engine = try PositioningEngine(plan: site.plan)
        for sample in samples { engine.push(sample) }
        let learned = engine.finish()
        let learning = try #require(engine.learnedDetection)
        let model = try #require(learning.model)
        let fixes = engine.statistics.detections.fixes
        // Fits at 32, 128, 512 … determined fixes (every scan's epoch closes at the end, in name order).
        let schedule = PositioningEngine.Configuration.detectionFitSchedule
        var expected = 0
        var due = schedule.first
        while due <= fixes {
            expected += 1
            due *= schedule.growth
        }
        #expect(fixes > 2 * schedule.first)
        #expect(learning.fits == expected, "\(fixes) fixes")
        #expect(learning.fixes <= fixes && learning.fixes >= fixes / schedule.growth)
        #expect(learning.varianceFactor >= 1)
        // A curve that falls with distance, as the scans' does.
        #expect(model.logDistanceSlope < -0.5)
        #expect(model.probability(distance: 2) > model.probability(distance: 12))

        let centroid = try PositioningEngine.locate(
            samples, plan: site.plan, configuration: Self.configuration(.weightedCentroid))
        #expect(centroid.count == learned.count)
        let byDevice = Dictionary(uniqueKeysWithValues: learned.map { ($0.device ?? "", $0) })
        let index = { (report: PositionReport) in Int(report.device!.dropFirst(4))! }
        // Squared errors after the first fit, of the fallbacks and of the fixes that start a
        // track (the detection posterior with the centroid prior, against the solver's fix).
        var before = 0, after = 0, started = 0
        var learnedError = 0.0, centroidError = 0.0, refinedError = 0.0, fixError = 0.0
        for report in centroid.sorted(by: { index($0) < index($1) }) {
            let other = try #require(byDevice[report.device ?? ""])
            #expect(other.source == report.source)
            let k = index(report), t = truth[k]
            let e = pow(report.position.x - t.x, 2) + pow(report.position.y - t.y, 2)
            let f = pow(other.position.x - t.x, 2) + pow(other.position.y - t.y, 2)
            // The determined fixes among the scans before this one (name order = closing order).
            let fixesBefore = centroid.filter { index($0) < k && $0.source != .fallback }.count
            if fixesBefore < schedule.first {
                if report.source == .fallback { before += 1 }
                #expect(other.position == report.position, "scan \(k) before the first fit")
            } else if report.source == .fallback {
                after += 1
                learnedError += f
                centroidError += e
            } else {
                started += 1
                refinedError += f
                fixError += e
            }
        }
        #expect(before > 0 && after > 50 && started > 50, "\(before) fallbacks before the first fit, \(after) after")
        // Hearing means being near here: the curve's fallbacks beat the centroid's, and its
        // starting fixes the solver's.
        #expect(learnedError < 0.9 * centroidError, "\(learnedError) against \(centroidError)")
        #expect(refinedError < 0.9 * fixError, "\(refinedError) against \(fixError)")
    }

    @Test("a sharded run learns the same curve and reports the same bytes for 1, 2 and 3 jobs")
    func shardedSame() throws {
        let (site, samples, _) = try Self.scans(count: 400, seed: 12)
        var outputs: [[PositionReport]] = []
        var curves: [LearnedDetection?] = []
        for jobs in 1...3 {
            let engine = try ShardedPositioningEngine(plan: site.plan, jobs: jobs)
            var reports: [PositionReport] = []
            for sample in samples {
                engine.push(sample)
                engine.drain { reports.append($0) }
            }
            engine.finishReleasing { reports.append($0) }
            outputs.append(reports)
            curves.append(engine.learnedDetection)
        }
        #expect(curves[0]?.model != nil)
        // The workers use the curve: their fallbacks are not the centroids.
        let centroid = try PositioningEngine.locate(
            samples, plan: site.plan, configuration: Self.configuration(.weightedCentroid))
        #expect(outputs[0].count == centroid.count)
        #expect(Set(outputs[0].map(\.position)) != Set(centroid.map(\.position)))
        #expect(outputs[1] == outputs[0] && outputs[2] == outputs[0])
        #expect(curves[1] == curves[0] && curves[2] == curves[0])
    }

    @Test("traffic without a fallback records its fixes but never pays for a fit")
    func noFallbackNoFit() throws {
        let site = try SimulatedSite(seed: 7, configuration: SimulatedSite.walk(duration: 90))
        var engine = try PositioningEngine(plan: site.plan)
        var reports: [PositionReport] = []
        for sample in site.samples {
            engine.push(sample)
            reports += engine.pull()
        }
        reports += engine.finish()
        #expect(!reports.contains { $0.source == .fallback })
        #expect(engine.statistics.detections.fixes > 2 * PositioningEngine.Configuration.detectionFitSchedule.first)
        #expect(engine.learnedDetection == LearnedDetection())
    }

    @Test("a given curve, another fallback or no outline: nothing learned and nothing recorded")
    func givenCurve() throws {
        let (site, samples, _) = try Self.scans(count: 200, seed: 13)
        var given = Self.configuration(.detectionPosterior)
        given.solver.detection = DetectionModel(intercept: 4, logDistanceSlope: -2, offsetSlope: 0, scanSpread: 0.1)
        var noOutline = PositioningEngine.Configuration()
        noOutline.constrainToOutline = false
        // The last asks for learning, but its engine has no outline to put a posterior on.
        for (configuration, asks) in [
            (given, false), (Self.configuration(.weightedCentroid), false),
            (Self.configuration(.outlinePosterior), false), (noOutline, true)
        ] {
            #expect(configuration.learnsDetection == asks)
            var engine = try PositioningEngine(plan: site.plan, configuration: configuration)
            for sample in samples { engine.push(sample) }
            _ = engine.finish()
            #expect(engine.learnedDetection == nil)
            #expect(engine.statistics.detections.isEmpty)
            #expect(engine.statistics.fallbackReports > 0)
        }
    }
}
