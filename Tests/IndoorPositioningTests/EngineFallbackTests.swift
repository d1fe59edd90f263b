import Foundation
import IndoorPositioning
import TestSupport
import Testing

/// The engine's reported fallback fixes with `solver.fallback` = `.outlinePosterior` or
/// `.detectionPosterior`: single scans of one or two beacons, as on uji-geo.
@Suite("Engine fallback estimate")
struct EngineFallbackTests {
    /// One scan per device: device k hears the beacons `heard[k]` once at t = 0.5 s.
    static func scans(_ site: SimulatedSite, heard: [[Int]], rssi: Double) -> [RSSISample] {
        heard.enumerated().flatMap { k, beacons in
            beacons.map { b in
                RSSISample(timestamp: 0.5, identity: SimulatedSite.identity(b), rssi: rssi, device: "scan\(k)")
            }
        }
    }

    @Test("one-beacon scans: the centroid reports the beacon, the posterior a point inside the floor")
    func oneBeaconScans() throws {
        let site = try SimulatedSite(seed: 3, configuration: SimulatedSite.walk(duration: 10))
        let beacons = site.plan.floors[0].beacons
        let samples = Self.scans(site, heard: beacons.indices.map { [$0] }, rssi: -80)
        var configuration = PositioningEngine.Configuration()
        configuration.solver.fallback = .weightedCentroid
        let centroid = try PositioningEngine.locate(samples, plan: site.plan, configuration: configuration)
        configuration.solver.fallback = .outlinePosterior
        let posterior = try PositioningEngine.locate(samples, plan: site.plan, configuration: configuration)
        #expect(centroid.count == beacons.count && posterior.count == beacons.count)
        let outline = site.plan.floors[0].outline!
        for (a, b) in zip(centroid, posterior) {
            #expect(a.source == .fallback && b.source == .fallback)
            #expect(b.position.x.isFinite && b.position.y.isFinite && b.accuracy.isFinite && b.accuracy > 1)
            #expect(outline.contains(Point2D(x: b.position.x, y: b.position.y)))
            // A reading of −80 dBm says the phone is metres away: the posterior leaves the beacon.
            #expect(
                Point2D(x: a.position.x, y: a.position.y).distance(to: Point2D(x: b.position.x, y: b.position.y)) > 1)
        }
    }

    @Test("recorded detections: one scan per determined fix, every beacon of its floor, the heard ones marked")
    func detectionsRecorded() throws {
        let site = try SimulatedSite(seed: 6, configuration: SimulatedSite.walk(duration: 30))
        // Beacon 1 is never heard.
        let samples = site.samples.filter { $0.identity.minor != 1 }
        var configuration = PositioningEngine.Configuration()
        configuration.recordsDetections = true
        var engine = try PositioningEngine(plan: site.plan, configuration: configuration)
        var reports: [PositionReport] = []
        for sample in PositioningEngine.inBatchOrder(samples) {
            engine.push(sample)
            reports += engine.pull()
        }
        reports += engine.finish()
        let detections = engine.statistics.detections
        let beacons = site.plan.floors[0].beacons
        #expect(detections.fixes == reports.count)
        let heardCounts = detections.sample.map { $0.heard.filter { $0 }.count }
        #expect(detections.sample.allSatisfy { $0.heard.count == beacons.count })
        #expect(heardCounts.allSatisfy { $0 < beacons.count && $0 >= 4 })
        // Off without it (and with a fallback that learns no curve): nothing recorded.
        var plain = try PositioningEngine(
            plan: site.plan, configuration: EngineDetectionLearningTests.configuration(.weightedCentroid))
        for sample in PositioningEngine.inBatchOrder(samples) { plain.push(sample) }
        #expect(plain.finish().count == reports.count)
        #expect(plain.statistics.detections.isEmpty)
    }

    @Test("the statistics count the fallback reports, and only those")
    func fallbackReportsCounted() throws {
        let site = try SimulatedSite(seed: 5, configuration: SimulatedSite.walk(duration: 20))
        // Five one-beacon scans, then a walk whose first two seconds hear two beacons.
        var samples = Self.scans(site, heard: (0..<5).map { [$0] }, rssi: -75)
        samples += site.samples.filter { $0.timestamp >= 2 || $0.identity.minor <= 2 }
        var engine = try PositioningEngine(plan: site.plan)
        var reports: [PositionReport] = []
        for sample in PositioningEngine.inBatchOrder(samples) {
            engine.push(sample)
            reports += engine.pull()
        }
        reports += engine.finish()
        let fallbacks = reports.filter { $0.source == .fallback }.count
        #expect(fallbacks >= 6)
        #expect(engine.statistics.fallbackReports == fallbacks)
        #expect(engine.statistics.reports == reports.count)
    }

    @Test(
        "a walk: the fallbacks move; tracked epochs do not (outline posterior) or only from a refined start (detection)",
        arguments: [TrilaterationSolver.Fallback.outlinePosterior, .detectionPosterior])
    func trackedWalkUnchanged(fallback: TrilaterationSolver.Fallback) throws {
        let site = try SimulatedSite(seed: 4, configuration: SimulatedSite.walk(duration: 40))
        // Drop all but two beacons for the first two seconds: the first reports are fallbacks.
        let samples = site.samples.filter { $0.timestamp >= 2 || $0.identity.minor <= 2 }
        var configuration = PositioningEngine.Configuration()
        configuration.solver.fallback = .weightedCentroid
        let plain = try PositioningEngine.locate(samples, plan: site.plan, configuration: configuration)
        configuration.solver.fallback = fallback
        configuration.solver.detection = DetectionModel(
            intercept: 3, logDistanceSlope: -1.5, offsetSlope: 0.1, scanSpread: 0.5)
        let posterior = try PositioningEngine.locate(samples, plan: site.plan, configuration: configuration)
        #expect(plain.count == posterior.count)
        let fallbacks = plain.indices.filter { plain[$0].source == .fallback }
        #expect(!fallbacks.isEmpty)
        let tracked = plain.indices.filter { !fallbacks.contains($0) }
        if fallback == .outlinePosterior {
            for k in tracked { #expect(plain[k] == posterior[k]) }
        } else {
            // With a curve the track starts at the detection posterior's mean instead of the
            // solver's fix: the first tracked report moves, and the track forgets its start
            // (after 20 s of the walk within 5 cm of the plain track's).
            let first = try #require(tracked.first)
            #expect(plain[first].position != posterior[first].position)
            for k in tracked where plain[k].timestamp >= 20 {
                let p = plain[k].position, q = posterior[k].position
                #expect(((p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y)).squareRoot() < 0.05)
            }
        }
        // The fallback reports themselves differ.
        #expect(fallbacks.contains { plain[$0].position != posterior[$0].position })
    }
}
