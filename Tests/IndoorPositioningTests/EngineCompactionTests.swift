import Foundation
import TestSupport
import Testing

@testable import IndoorPositioning

/// Idle devices kept small (`Configuration.compactAfter`): phones heard once sleep as their
/// samples, tracked phones give up their scratch space, and no report changes.
@Suite("Engine: idle devices are kept small without changing a report")
struct EngineCompactionTests {
    /// Visitors in time order across devices: `count` of them, one every 2 s, each hearing the
    /// site for 3 s; the first `returning` come back 20 s later for another 3 s (by then asleep
    /// or compacted); and `once` phones heard by a single sample each, one every 0.7 s.
    static func traffic(site: SimulatedSite, count: Int, returning: Int, once: Int) -> [RSSISample] {
        var samples = EngineIdleReleaseTests.visits(site: site, count: count, spacing: 2)
        let back = Set((0..<returning).map { "visitor\($0)" })
        for var sample in samples where back.contains(sample.device ?? "") {
            sample.timestamp += 20
            samples.append(sample)
        }
        let walk = site.samples.filter { $0.timestamp < 3 }
        for phone in 0..<once {
            var sample = walk[phone % walk.count]
            sample.timestamp = 0.35 + Double(phone) * 0.7
            sample.device = "once\(phone)"
            samples.append(sample)
        }
        return samples.enumerated().sorted { ($0.element.timestamp, $0.offset) < ($1.element.timestamp, $1.offset) }
            .map(\.element)
    }

    /// Settings that reach every part of a track's state: the default, a lag, motion modes,
    /// online learning and raw fixes.
    static func settings() -> [(String, PositioningEngine.Configuration)] {
        var lag = PositioningEngine.Configuration()
        lag.lag = 3
        var modes = PositioningEngine.Configuration()
        modes.tracker.motionModes = MotionModes()
        var learning = PositioningEngine.Configuration()
        learning.learning = OnlineLearning(updateInterval: 10)
        var raw = PositioningEngine.Configuration()
        raw.tracking = .none
        return [
            ("default", PositioningEngine.Configuration()), ("lag", lag), ("modes", modes), ("learning", learning),
            ("raw", raw)
        ]
    }

    /// Every report of `samples` through an engine with `configuration`, and the most devices
    /// asleep at once.
    static func run(
        _ samples: [RSSISample], site: SimulatedSite, configuration: PositioningEngine.Configuration,
        releasingAtEnd: Bool = false
    ) throws -> (reports: [PositionReport], mostAsleep: Int, devices: Int) {
        var engine = try PositioningEngine(plan: site.plan, configuration: configuration)
        var reports: [PositionReport] = []
        var mostAsleep = 0
        for sample in samples {
            engine.push(sample)
            reports += engine.pull()
            mostAsleep = max(mostAsleep, engine.asleepDeviceCount)
        }
        if releasingAtEnd {
            engine.finishReleasing { reports.append($0) }
        } else {
            reports += engine.finish()
        }
        return (reports, mostAsleep, engine.activeDeviceCount)
    }

    /// An engine with `configuration` and one that never compacts (`compactAfter` nil).
    static func compactedAndKept(
        site: SimulatedSite, configuration: PositioningEngine.Configuration
    ) throws -> (PositioningEngine, PositioningEngine) {
        var never = configuration
        never.compactAfter = nil
        return (
            try PositioningEngine(plan: site.plan, configuration: configuration),
            try PositioningEngine(plan: site.plan, configuration: never)
        )
    }

    /// A phone heard once at 0.2 s ("once") and one that keeps the clock going ("clock").
    static func onceAndClock(site: SimulatedSite) -> (RSSISample, RSSISample) {
        var once = site.samples[0]
        once.device = "once"
        once.timestamp = 0.2
        var clock = site.samples[1]
        clock.device = "clock"
        return (once, clock)
    }

    @Test("compacted after 0.5 s or never: the same reports in the same order, for every setting")
    func sameReports() throws {
        let site = try SimulatedSite(seed: 31)
        let samples = Self.traffic(site: site, count: 40, returning: 10, once: 150)
        for (name, setting) in Self.settings() {
            var never = setting
            never.compactAfter = nil
            var soon = setting
            soon.compactAfter = 0.5
            let kept = try Self.run(samples, site: site, configuration: never)
            let compacted = try Self.run(samples, site: site, configuration: soon)
            #expect(kept.mostAsleep == 0, "\(name)")
            // The phones heard once sleep (so the comparison is not vacuous).
            #expect(compacted.mostAsleep >= 100, "\(name)")
            #expect(compacted.devices == 190 && kept.devices == 190, "\(name)")
            #expect(compacted.reports.count == kept.reports.count, "\(name)")
            #expect(compacted.reports == kept.reports, "\(name)")
        }
    }

    @Test("finishReleasing gives finish()'s reports in the same order and frees every device")
    func finishReleasing() throws {
        let site = try SimulatedSite(seed: 32)
        let samples = Self.traffic(site: site, count: 30, returning: 5, once: 50)
        let finished = try Self.run(samples, site: site, configuration: PositioningEngine.Configuration())
        let released = try Self.run(
            samples, site: site, configuration: PositioningEngine.Configuration(), releasingAtEnd: true)
        #expect(finished.devices == 80)
        #expect(released.devices == 0)
        #expect(released.reports == finished.reports)
    }

    @Test(
        "phones asleep finished one after another in one reused track: each reports as a new track would, across floors and zones"
    )
    func finishedInReusedTrack() throws {
        // Two floors, each split into two zones; 120 phones heard for half a second each, at
        // times of the walk on either floor, so that the phone finished before another (in name
        // order) often stood on the other floor or in the other zone.
        let (plan, walkSamples, walk) = try EngineFloorTests.site(seed: 5, switchAt: 60)
        let width = walk.configuration.width, height = walk.configuration.height
        func zones(_ level: Int) -> [Zone] {
            [
                Zone(
                    id: "west\(level)",
                    polygon: Polygon([
                        Point2D(x: 0, y: 0), Point2D(x: width / 2, y: 0), Point2D(x: width / 2, y: height),
                        Point2D(x: 0, y: height)
                    ])),
                Zone(
                    id: "east\(level)",
                    polygon: Polygon([
                        Point2D(x: width / 2, y: 0), Point2D(x: width, y: 0), Point2D(x: width, y: height),
                        Point2D(x: width / 2, y: height)
                    ]))
            ]
        }
        let zoned = try FloorPlan(
            name: plan.name, defaults: plan.defaults,
            floors: plan.floors.map {
                Floor(
                    level: $0.level, elevation: $0.elevation, outline: $0.outline, zones: zones($0.level),
                    beacons: $0.beacons)
            })
        var samples: [RSSISample] = []
        var random = SeededGenerator(seed: 77)
        for phone in 0..<120 {
            let start = Double(random.next() % 1_180) / 10
            for var sample in walkSamples where sample.timestamp >= start && sample.timestamp < start + 0.5 {
                sample.device = "phone\(phone)"
                sample.timestamp = Double(phone) * 0.01 + sample.timestamp - start
                samples.append(sample)
            }
        }
        samples.sort { ($0.timestamp, $0.device ?? "") < ($1.timestamp, $1.device ?? "") }
        for (name, configuration) in Self.settings() {
            var engine = try PositioningEngine(plan: zoned, configuration: configuration)
            var kept = try PositioningEngine(plan: zoned, configuration: configuration)
            for sample in samples {
                engine.push(sample)
                kept.push(sample)
            }
            #expect(engine.pull().isEmpty && kept.pull().isEmpty, "\(name): no epoch closed before the end")
            #expect(engine.asleepDeviceCount == 120, "\(name)")
            var released: [PositionReport] = []
            engine.finishReleasing { released.append($0) }
            // finish() wakes every phone into a new track of its own.
            let finished = kept.finish()
            #expect(released.count == 120, "\(name)")
            // The first phone that differs, if any (not two lists of 120 reports).
            let differing = released.indices.first { $0 < finished.count && released[$0] != finished[$0] }
            #expect(differing == nil, "\(name): \(differing.map { "\(released[$0]) against \(finished[$0])" } ?? "")")
            #expect(Set(finished.map(\.level)) == [0, 1], "\(name)")
            #expect(Set(finished.compactMap(\.zone)).count == 4, "\(name)")

            // The reused track, after each phone, recycled for the next: every stored property
            // (private ones too, arrays element by element) as a new track's.
            var probe = try PositioningEngine(plan: zoned, configuration: configuration)
            for sample in samples { probe.push(sample) }
            var template = probe.newTrack
            template.device = "next"
            let expected = Self.dumped(template)
            var mismatches = 0
            for held in probe.devices.allHeldInNameOrder() {
                probe.finishReleasing(held.device)
                guard var recycled = probe.finisher else { continue }
                recycled.recycle(as: "next", like: probe.newTrack)
                if Self.dumped(recycled) != expected { mismatches += 1 }
            }
            #expect(probe.finisher != nil, "\(name): the phones were finished in a reused track")
            #expect(mismatches == 0, "\(name): \(mismatches) of 120 recycled tracks differ from a new track")
        }
    }

    /// Every stored property of `value`, nested ones too, as `dump` writes them.
    static func dumped<T>(_ value: T) -> String {
        var text = ""
        dump(value, to: &text, maxDepth: .max, maxItems: .max)
        return text
    }

    @Test("a device asleep is released like an awake one: the same reports, counted once")
    func releasedAsleep() throws {
        let site = try SimulatedSite(seed: 34)
        var configuration = PositioningEngine.Configuration()
        configuration.compactAfter = 1
        configuration.idleRelease = 3
        var (engine, kept) = try Self.compactedAndKept(site: site, configuration: configuration)
        var (once, clock) = Self.onceAndClock(site: site)
        var reports: [PositionReport] = [], keptReports: [PositionReport] = []
        var mostAsleep = 0
        for time in [0.2, 2.0, 4.0, 6.0] {
            clock.timestamp = time
            for sample in time == 0.2 ? [once, clock] : [clock] {
                engine.push(sample)
                kept.push(sample)
                reports += engine.pull()
                keptReports += kept.pull()
                mostAsleep = max(mostAsleep, engine.asleepDeviceCount)
            }
        }
        #expect(mostAsleep == 2)  // both phones are samples until an epoch closes
        #expect(engine.asleepDeviceCount == 0)
        #expect(engine.statistics.releasedDevices == 1 && kept.statistics.releasedDevices == 1)
        #expect(reports.contains { $0.device == "once" })
        #expect(reports + engine.finish() == keptReports + kept.finish())
    }

    @Test("a device asleep is woken by its next sample and by advance(to:)")
    func wakes() throws {
        let site = try SimulatedSite(seed: 33)
        var configuration = PositioningEngine.Configuration()
        configuration.compactAfter = 1
        var (engine, kept) = try Self.compactedAndKept(site: site, configuration: configuration)
        var (once, clock) = Self.onceAndClock(site: site)
        var reports: [PositionReport] = [], keptReports: [PositionReport] = []
        for time in [0.2, 3.0, 5.0] {
            clock.timestamp = time
            for sample in time == 0.2 ? [once, clock] : [clock] {
                engine.push(sample)
                kept.push(sample)
            }
        }
        #expect(engine.asleepDeviceCount == 1)
        // Another sample of the sleeping phone, in its still-open first epoch: it stays samples.
        once.timestamp = 0.9
        #expect(engine.push(once) == kept.push(once))
        #expect(engine.asleepDeviceCount == 1)
        // One that closes that epoch wakes it into its track.
        once.timestamp = 5.5
        #expect(engine.push(once) == kept.push(once))
        #expect(engine.asleepDeviceCount == 0)
        clock.timestamp = 8
        engine.push(clock)
        kept.push(clock)
        // The clock's own phone has closed epochs: compacted, not asleep. A new phone is samples.
        #expect(engine.asleepDeviceCount == 0)
        var visitor = site.samples[2]
        visitor.device = "visitor"
        visitor.timestamp = 8.1
        engine.push(visitor)
        kept.push(visitor)
        #expect(engine.asleepDeviceCount == 1)
        engine.advance(to: 9)
        kept.advance(to: 9)
        #expect(engine.asleepDeviceCount == 0)
        reports += engine.pull() + engine.finish()
        keptReports += kept.pull() + kept.finish()
        #expect(reports.contains { $0.device == "once" })
        #expect(reports == keptReports)
    }
}
