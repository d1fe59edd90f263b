import Foundation
import TestSupport
import Testing

@testable import IndoorPositioning

/// `finish(device:)`: one device closed and forgotten while the others go on, as `indoorpos
/// monitor` does for input in batch order.
@Suite("Engine: finishing one device")
struct EngineFinishDeviceTests {
    @Test(
        "batch order with each device finished when the next starts: the reports of one finish() at the end, one device held"
    )
    func batchOrderFinished() throws {
        let site = try SimulatedSite(seed: 24)
        // 40 devices of 3 s each, in batch order (device after device).
        let samples = PositioningEngine.inBatchOrder(
            EngineIdleReleaseTests.visits(site: site, count: 40, spacing: 5))
        var configuration = PositioningEngine.Configuration()
        // Nothing couples the devices, so the finishing moment cannot change a report.
        configuration.excludesInconsistentBeacons = false
        var early = try PositioningEngine(plan: site.plan, configuration: configuration)
        var late = try PositioningEngine(plan: site.plan, configuration: configuration)
        var earlyReports: [PositionReport] = [], lateReports: [PositionReport] = []
        var mostActive = 0
        var current: String?
        for sample in samples {
            if let current, current != sample.device { early.finish(device: current) }
            current = sample.device
            early.push(sample)
            late.push(sample)
            earlyReports += early.pull()
            lateReports += late.pull()
            mostActive = max(mostActive, early.activeDeviceCount)
        }
        earlyReports += early.finish()
        lateReports += late.finish()
        #expect(mostActive == 1)
        #expect(late.activeDeviceCount == 40)
        #expect(early.statistics.reports == earlyReports.count)
        #expect(earlyReports.count == lateReports.count)
        #expect(earlyReports.count >= 40 * 2)
        // The same reports; one device's all come together when it is finished early.
        let key = { (r: PositionReport) in "\(r.device ?? "")@\(r.timestamp)" }
        #expect(
            Dictionary(uniqueKeysWithValues: earlyReports.map { (key($0), $0) })
                == Dictionary(uniqueKeysWithValues: lateReports.map { (key($0), $0) }))
        // Finished early, each device's reports come together, as the input does; kept to the
        // end, each device's last epoch comes after every other device.
        func runs(_ reports: [PositionReport]) -> Int {
            var devices: [String?] = []
            for report in reports where devices.last != report.device { devices.append(report.device) }
            return devices.count
        }
        #expect(runs(earlyReports) == 40)
        #expect(runs(lateReports) > 40)
    }

    @Test("a finished device heard again starts a new track; an unknown device is ignored")
    func heardAgain() throws {
        let site = try SimulatedSite(seed: 25, device: "phone")
        var engine = try PositioningEngine(plan: site.plan)
        let first = site.samples.filter { $0.timestamp < 4 }
        for sample in first { engine.push(sample) }
        let before = engine.pull().count
        engine.finish(device: "nobody")
        #expect(engine.activeDeviceCount == 1)
        engine.finish(device: "phone")
        #expect(engine.activeDeviceCount == 0)
        let last = engine.pull()
        #expect(!last.isEmpty)
        #expect(before + last.count == engine.statistics.reports)
        var again = first[0]
        again.timestamp = 10
        #expect(engine.push(again) == .accepted)
        #expect(engine.activeDeviceCount == 1)
        // Nothing is left to report for the finished track.
        engine.finish(device: "phone")
        #expect(engine.pull().allSatisfy { $0.timestamp >= 10 })
    }
}
