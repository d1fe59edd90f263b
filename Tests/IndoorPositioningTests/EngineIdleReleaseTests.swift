import Foundation
import TestSupport
import Testing

@testable import IndoorPositioning

@Suite("Engine: idle devices are released")
struct EngineIdleReleaseTests {
    /// `count` short visits (devices), one starting every `spacing` seconds, each hearing the
    /// site for 3 s, in time order across devices.
    static func visits(site: SimulatedSite, count: Int, spacing: Double) -> [RSSISample] {
        let walk = site.samples.filter { $0.timestamp < 3 }
        var samples: [RSSISample] = []
        for visitor in 0..<count {
            for var sample in walk {
                sample.timestamp += Double(visitor) * spacing
                sample.device = "visitor\(visitor)"
                samples.append(sample)
            }
        }
        return samples.sorted { $0.timestamp < $1.timestamp }
    }

    @Test("released devices report exactly what they report when kept; active devices stay few")
    func releaseKeepsReportsAndBoundsDevices() throws {
        let site = try SimulatedSite(seed: 21)
        let samples = Self.visits(site: site, count: 200, spacing: 2)
        var configuration = PositioningEngine.Configuration()
        configuration.idleRelease = 10
        configuration.excludesInconsistentBeacons = false
        var released = try PositioningEngine(plan: site.plan, configuration: configuration)
        var keptConfiguration = PositioningEngine.Configuration()
        keptConfiguration.excludesInconsistentBeacons = false
        var kept = try PositioningEngine(plan: site.plan, configuration: keptConfiguration)
        var keptReports: [PositionReport] = [], releasedReports: [PositionReport] = []
        var mostActive = 0
        for sample in samples {
            kept.push(sample)
            released.push(sample)
            keptReports += kept.pull()
            releasedReports += released.pull()
            mostActive = max(mostActive, released.activeDeviceCount)
        }
        keptReports += kept.finish()
        releasedReports += released.finish()
        // 3 s of samples every 2 s, released 10–12.5 s after the last: at most 8 at once.
        #expect(mostActive <= 8)
        #expect(kept.activeDeviceCount == 200)
        #expect(released.statistics.releasedDevices >= 190)
        let key = { (r: PositionReport) in "\(r.device ?? "")@\(r.timestamp)" }
        #expect(releasedReports.count == keptReports.count)
        #expect(
            Dictionary(uniqueKeysWithValues: releasedReports.map { (key($0), $0) })
                == Dictionary(uniqueKeysWithValues: keptReports.map { (key($0), $0) }))
    }

    @Test("a device heard again after its release starts a new track")
    func heardAgain() throws {
        let site = try SimulatedSite(seed: 22, device: "phone")
        var configuration = PositioningEngine.Configuration()
        configuration.idleRelease = 5
        var engine = try PositioningEngine(plan: site.plan, configuration: configuration)
        let first = site.samples.filter { $0.timestamp < 4 }
        for sample in first { engine.push(sample) }
        // Another device keeps the clock going past the idle time.
        var other = first[0]
        other.device = "other"
        other.timestamp = 20
        engine.push(other)
        #expect(engine.activeDeviceCount == 1)
        #expect(engine.statistics.releasedDevices == 1)
        var again = first[0]
        again.timestamp = 21
        #expect(engine.push(again) == .accepted)
        #expect(engine.activeDeviceCount == 2)
    }

    @Test("a device without a name (a file without a device column) is released like any other")
    func unnamedReleased() throws {
        let site = try SimulatedSite(seed: 24)
        var configuration = PositioningEngine.Configuration()
        configuration.idleRelease = 5
        var engine = try PositioningEngine(plan: site.plan, configuration: configuration)
        for sample in site.samples where sample.timestamp < 4 { engine.push(sample) }
        var other = site.samples[0]
        other.device = "other"
        other.timestamp = 20
        engine.push(other)
        #expect(engine.statistics.releasedDevices == 1)
        // Its slot is freed: only "other" is held.
        #expect(engine.activeDeviceCount == 1)
    }

    @Test("a non-positive idle-release or compaction time is a configuration error")
    func badIdleTime() throws {
        let site = try SimulatedSite(seed: 23)
        let times: [WritableKeyPath<PositioningEngine.Configuration, Double?>] = [\.idleRelease, \.compactAfter]
        for time in times {
            for bad in [0, -1, Double.nan, .infinity] {
                var configuration = PositioningEngine.Configuration()
                configuration[keyPath: time] = bad
                #expect(throws: PositioningError.self, "\(time) = \(bad)") {
                    _ = try PositioningEngine(plan: site.plan, configuration: configuration)
                }
            }
        }
    }
}
