import Foundation
import IndoorPositioning
import TestSupport
import Testing

/// The engine's side of Docs/Reference/BadInput.md: bad samples are dropped and counted, never fatal,
/// never a hang, never a NaN.
@Suite("Bad input: the engine")
struct BadInputTests {
    static func reportsAreFinite(_ reports: [PositionReport]) -> Bool {
        reports.allSatisfy {
            $0.timestamp.isFinite && $0.position.x.isFinite && $0.position.y.isFinite && $0.position.z.isFinite
                && $0.accuracy.isFinite && $0.accuracy > 0
        }
    }

    @Test("nanosecond and huge timestamps are refused as invalid times, and the engine stays usable")
    func hugeTimestamps() throws {
        let site = try SimulatedSite(seed: 5)
        var engine = try PositioningEngine(plan: site.plan)
        // The walk's times in nanoseconds (Android's scan times are about 1.6e18 ns).
        for sample in site.samples.prefix(400) {
            var scaled = sample
            scaled.timestamp = 1.6e18 + sample.timestamp * 1e9
            #expect(engine.push(scaled) == .invalidTime)
        }
        for time in [
            1e308, -1e308, 1e16, RSSISample.timestampLimit.nextUp, -RSSISample.timestampLimit.nextUp,
            .nan, .infinity, -.infinity
        ] {
            var sample = site.samples[0]
            sample.timestamp = time
            #expect(engine.push(sample) == .invalidTime, "time \(time)")
        }
        #expect(engine.statistics.invalidTime == 408)
        #expect(engine.statistics.accepted == 0)
        #expect(engine.finish().isEmpty)
        // The same engine then positions the walk normally.
        for sample in site.samples { engine.push(sample) }
        let reports = engine.finish()
        #expect(reports.count > 50)
        #expect(Self.reportsAreFinite(reports))
    }

    @Test("times at the limit (±1e10 s) and gaps spanning it are positioned, with finite reports")
    func timestampsAtTheLimit() throws {
        let site = try SimulatedSite(seed: 6)
        for offset in [RSSISample.timestampLimit - 400, -RSSISample.timestampLimit] {
            let shifted = site.samples.map { sample -> RSSISample in
                var s = sample
                s.timestamp += offset
                return s
            }
            let reports = try PositioningEngine.locate(shifted, plan: site.plan)
            #expect(reports.count > 50)
            #expect(Self.reportsAreFinite(reports))
            // The same walk without the offset, reported at the same epochs.
            let plain = try PositioningEngine.locate(site.samples, plan: site.plan)
            #expect(reports.count == plain.count, "offset \(offset)")
        }
        // One device heard at −1e10 s, then again at +1e10 s: one gap of 2e10 s, closed in one step.
        let early = site.samples.prefix(200).map { s -> RSSISample in
            var t = s
            t.timestamp -= RSSISample.timestampLimit
            return t
        }
        let late = site.samples.prefix(200).map { s -> RSSISample in
            var t = s
            t.timestamp += RSSISample.timestampLimit - 100
            return t
        }
        let reports = try PositioningEngine.locate(early + late, plan: site.plan, smooth: true)
        #expect(reports.count > 10)
        #expect(Self.reportsAreFinite(reports))
    }

    @Test("the shortest epoch at the limit still advances: one report per epoch heard")
    func shortestEpochAtTheLimit() throws {
        let site = try SimulatedSite(seed: 7)
        var configuration = PositioningEngine.Configuration()
        configuration.epoch = 0.01
        configuration.tracking = .none
        let base = RSSISample.timestampLimit - 10
        let samples = site.samples.prefix(300).map { s -> RSSISample in
            var t = s
            t.timestamp += base
            return t
        }
        let reports = try PositioningEngine.locate(samples, plan: site.plan, configuration: configuration)
        // The same samples near zero give the same number of epochs: no epoch is lost to rounding.
        let near = site.samples.prefix(300).map { $0 }
        let plain = try PositioningEngine.locate(near, plan: site.plan, configuration: configuration)
        #expect(plain.count > 50)
        #expect(abs(reports.count - plain.count) <= 2)
        #expect(Self.reportsAreFinite(reports))
    }

    @Test("RSSI NaN, ±infinity, positive, 0, 127 and below −130 dBm are refused with their reason and counted")
    func rssiValues() throws {
        let site = try SimulatedSite(seed: 8)
        var engine = try PositioningEngine(plan: site.plan)
        let id = SimulatedSite.identity(0)
        let cases: [(Double, RSSIRejection)] = [
            (.infinity, .nonFinite(.infinity)), (-.infinity, .nonFinite(-.infinity)),
            (42, .positive(42)), (0, .noReading(0)), (127, .noReading(127))
        ]
        for (rssi, reason) in cases {
            #expect(
                engine.push(RSSISample(timestamp: 0, identity: id, rssi: rssi)) == .invalidRSSI(reason), "rssi \(rssi)")
        }
        if case .invalidRSSI = engine.push(RSSISample(timestamp: 0, identity: id, rssi: .nan)) {
        } else {
            Issue.record("NaN accepted")
        }
        if case .invalidRSSI = engine.push(RSSISample(timestamp: 0, identity: id, rssi: -200)) {
        } else {
            Issue.record("−200 dBm accepted")
        }
        #expect(engine.statistics.invalidRSSI == 7)
        #expect(engine.statistics.accepted == 0)
    }

    @Test("only beacons of another floor heard: the reports move to that floor, finite")
    func otherFloorOnly() throws {
        let two = try EngineFloorTests.site(seed: 4, switchAt: 1000, duration: 40)
        // Keep only level 1's beacons while the walker is (by the simulation) on level 0.
        let upstairs = two.samples.filter { $0.identity.major == 1 }
        let reports = try PositioningEngine.locate(upstairs, plan: two.plan)
        #expect(reports.count > 20)
        #expect(reports.allSatisfy { $0.level == 1 })
        #expect(Self.reportsAreFinite(reports))
    }

    @Test("a plan with a coordinate beyond ±1e6 m is refused naming the JSON path")
    func enormousCoordinates() throws {
        let beacon = Beacon(identity: SimulatedSite.identity(0), position: Point3D(x: 2e6, y: 0, z: 2))
        #expect(
            throws: FloorPlanError.outOfRange(path: "floors[0].beacons[0].x", value: "2000000.0", range: "-1e6...1e6 m")
        ) {
            try FloorPlan(name: "far", floors: [Floor(level: 0, beacons: [beacon])])
        }
        let outline = Polygon([Point2D(x: 0, y: 0), Point2D(x: 1e7, y: 0), Point2D(x: 0, y: 1)])
        #expect(
            throws: FloorPlanError.outOfRange(
                path: "floors[0].outline[1][0]", value: "10000000.0", range: "-1e6...1e6 m")
        ) {
            try FloorPlan(name: "far", floors: [Floor(level: 0, outline: outline)])
        }
    }

    @Test("samples with equal timestamps, backwards within the reorder delay, or late are handled and counted")
    func timeOrder() throws {
        let site = try SimulatedSite(seed: 9)
        var samples = Array(site.samples.sorted { $0.timestamp < $1.timestamp }.prefix(600))
        // Every sample of one instant twice: equal timestamps.
        samples = samples.flatMap { [$0, $0] }
        let reports = try PositioningEngine.locate(samples, plan: site.plan)
        #expect(reports.count > 10 && Self.reportsAreFinite(reports))
        var engine = try PositioningEngine(plan: site.plan)
        for sample in samples { engine.push(sample) }
        var old = samples[0]
        old.timestamp -= 50
        #expect(engine.push(old) == .late)
        #expect(engine.statistics.late == 1)
    }
}

@Suite("Epochs without a report are counted")
struct UnreportedEpochTests {
    @Test(
        "a phone that stops hearing its floor at once: the epochs of the floor rule's dwell are counted, and every epoch with samples is reported or counted"
    )
    func floorDwell() throws {
        let (plan, all, _) = try EngineFloorTests.site(seed: 5, switchAt: 20, duration: 40)
        // Floor 0's beacons only before 20 s, floor 1's only after.
        let samples = all.filter { ($0.timestamp < 20) == ($0.identity.major == 0) }
        var engine = try PositioningEngine(plan: plan)
        var reports: [PositionReport] = []
        for sample in samples {
            _ = engine.push(sample)
            reports += engine.pull()
        }
        reports += engine.finish()
        let statistics = engine.statistics
        #expect(statistics.epochsWithoutFix >= 1)
        #expect(statistics.epochsWithoutReport == statistics.epochsWithoutFix + statistics.epochsRefused)
        // One device, samples every 0.25 s from t = 0: the 1-s epochs are the whole seconds.
        let epochs = Set(samples.map { Int($0.timestamp.rounded(.down)) }).count
        #expect(reports.filter { $0.source != .predicted }.count + statistics.epochsWithoutReport == epochs)
    }
}
