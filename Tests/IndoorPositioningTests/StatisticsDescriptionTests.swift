import Foundation
import IndoorPositioning
import TestSupport
import Testing

/// `print(engine.statistics)`, as the README's quick start ends: one short line, however many
/// detection scans the engine recorded (it once printed 901,264 characters on 40 phone-minutes).
@Suite("Engine statistics: one short line")
struct StatisticsDescriptionTests {
    @Test("the description names the counts and stays short with thousands of detection scans")
    func shortLine() throws {
        let site = try SimulatedSite(seed: 3, configuration: SimulatedSite.walk(duration: 600))
        var configuration = PositioningEngine.Configuration()
        configuration.recordsDetections = true
        var engine = try PositioningEngine(plan: site.plan, configuration: configuration)
        for sample in site.samples.sorted(by: { $0.timestamp < $1.timestamp }) { engine.push(sample) }
        let reports = engine.finish()
        let statistics = engine.statistics
        #expect(!statistics.detections.isEmpty)
        let line = String(describing: statistics)
        print(line)
        #expect(line.count <= 300)
        #expect(!line.contains("\n"))
        #expect(line.hasPrefix("\(statistics.accepted) samples used"))
        #expect(line.contains("\(statistics.reports) reports"))
        #expect(statistics.reports >= reports.count)
        #expect(line.contains("fixes recorded for the detection curve"))
    }
}
