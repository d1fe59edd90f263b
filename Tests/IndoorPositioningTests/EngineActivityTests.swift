import Foundation
import IndoorPositioning
import TestSupport
import Testing

/// The phone's activity hints (`RSSISample.activity`) through the engine, on simulated walks
/// with stops.
@Suite("Engine: the phone's activity as evidence for the motion modes")
struct EngineActivityTests {
    /// The walk's samples with the hint an activity recogniser `delay` seconds late would give.
    static func hinted(_ site: SimulatedSite, delay: Double) -> [RSSISample] {
        site.samples.map {
            var sample = $0
            let t = $0.timestamp - delay
            let stopped = site.walk.legs.contains { $0.start == $0.end && $0.startTime <= t && t < $0.endTime }
            sample.activity = stopped ? .stationary : .walking
            return sample
        }
    }

    /// The dot's mean speed (m/s) over report-to-report steps inside stops, and the RMSE (m) of
    /// the reports outside them.
    static func figures(_ reports: [PositionReport], _ site: SimulatedSite) -> (standing: Double, walking: Double) {
        var speed = 0.0, still = 0, squared = 0.0, moving = 0
        for (a, b) in zip(reports, reports.dropFirst()) {
            let stopped = site.walk.legs.contains {
                $0.start == $0.end && $0.startTime <= a.timestamp && b.timestamp <= $0.endTime
            }
            if stopped {
                speed += a.position.planar.distance(to: b.position.planar) / (b.timestamp - a.timestamp)
                still += 1
            } else {
                squared += site.error(of: b) * site.error(of: b)
                moving += 1
            }
        }
        return (speed / Double(max(still, 1)), (squared / Double(max(moving, 1))).squareRoot())
    }

    @Test("Hints at each change: the dot stands (≤ 0.15 m/s) and walking is as accurate as without hints (≤ +3 %)")
    func timelyHints() throws {
        var standing = 0.0, plainStanding = 0.0, walking = 0.0, plainWalking = 0.0
        var modes = PositioningEngine.Configuration()
        modes.tracker.motionModes = MotionModes()
        for seed: UInt64 in [31, 32, 33] {
            let site = try SimulatedSite(seed: seed, configuration: WalkSimulator.Configuration.pausingWalk)
            let plain = Self.figures(try PositioningEngine.locate(site.samples, plan: site.plan), site)
            let hinted = Self.figures(
                try PositioningEngine.locate(Self.hinted(site, delay: 0), plan: site.plan, configuration: modes), site)
            print(
                "seed \(seed): with hints standing \(hinted.standing) m/s, walking RMSE \(hinted.walking) m; "
                    + "without: \(plain.standing) m/s, \(plain.walking) m")
            standing += hinted.standing / 3
            plainStanding += plain.standing / 3
            walking += hinted.walking / 3
            plainWalking += plain.walking / 3
        }
        #expect(standing <= 0.15)
        #expect(standing <= 0.2 * plainStanding)
        #expect(walking <= 1.03 * plainWalking)
    }

    @Test("Hints 2 s late (a recogniser settling): the dot still stands far steadier, at a cost while walking")
    func lateHints() throws {
        var modes = PositioningEngine.Configuration()
        modes.tracker.motionModes = MotionModes()
        let site = try SimulatedSite(seed: 31, configuration: WalkSimulator.Configuration.pausingWalk)
        let plain = Self.figures(try PositioningEngine.locate(site.samples, plan: site.plan), site)
        let late = Self.figures(
            try PositioningEngine.locate(Self.hinted(site, delay: 2), plan: site.plan, configuration: modes), site)
        print(
            "2 s late: standing \(late.standing) m/s, walking RMSE \(late.walking) m; without: \(plain.standing), \(plain.walking)"
        )
        #expect(late.standing <= 0.3 * plain.standing)
        #expect(late.walking <= 1.3 * plain.walking)
    }

    @Test("Without motion modes the hints change nothing; they are counted")
    func ignoredWithoutModes() throws {
        let site = try SimulatedSite(seed: 32, configuration: SimulatedSite.walk(duration: 60))
        let plainReports = try PositioningEngine.locate(site.samples, plan: site.plan)
        var engine = try PositioningEngine(plan: site.plan)
        var hintedReports: [PositionReport] = []
        for sample in PositioningEngine.inBatchOrder(Self.hinted(site, delay: 0)) {
            engine.push(sample)
            hintedReports += engine.pull()
        }
        hintedReports += engine.finish()
        #expect(hintedReports == plainReports)
        #expect(engine.statistics.activityHints == engine.statistics.accepted)
        #expect(engine.statistics.activityHints > 0)
    }
}
