import Foundation
import IndoorPositioning
import PositioningIO
import Testing

@Suite("Engine zones: the zone estimate, agreeing with zone regions")
struct EngineZoneTests {
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Docs/Examples")

    static func sampleReports() throws -> (FloorPlan, [PositionReport]) {
        let plan = try FloorPlan.load(path: examples.appendingPathComponent("office-plan.json").path)
        let reader = try RSSISampleReader(path: examples.appendingPathComponent("office-rssi.csv").path)
        var samples: [RSSISample] = []
        while let sample = try reader.next() { samples.append(sample) }
        return (plan, try PositioningEngine.locate(samples, plan: plan))
    }

    @Test("the bundled sample's zones do not flap: no zone is left and re-entered within 5 s")
    func noFlapping() throws {
        let (_, reports) = try Self.sampleReports()
        var changes = 0
        for device in Set(reports.map(\.device)) {
            let mine = reports.filter { $0.device == device }
            var runs: [(zone: String?, start: Double)] = []
            for report in mine where runs.last?.zone != report.zone || runs.isEmpty {
                runs.append((report.zone, report.timestamp))
            }
            changes += runs.count - 1
            for k in runs.indices.dropFirst(2) where runs[k].zone == runs[k - 2].zone {
                #expect(
                    runs[k].start - runs[k - 1].start >= 5,
                    "\(device ?? ""): \(runs[k - 2].zone ?? "-") → \(runs[k - 1].zone ?? "-") → \(runs[k].zone ?? "-") at \(runs[k - 1].start)"
                )
            }
        }
        // The truth has 6 zone changes over the three walks; a bare point-in-polygon test gave 28.
        #expect(changes <= 12)
    }

    @Test("a report's zone is one that zone regions fed the same reports hold satisfied")
    func agreesWithEvents() throws {
        let (plan, reports) = try Self.sampleReports()
        for device in Set(reports.map(\.device)) {
            var monitor = try RegionMonitor(plan: plan)
            for zone in plan.floors[0].zones { try monitor.add(.zone(zone.id), identifier: zone.id) }
            var checked = 0
            for report in reports where report.device == device {
                _ = monitor.observe(report)
                let satisfied = monitor.identifiers.filter { monitor.record(for: $0)?.state == .satisfied }
                guard !satisfied.isEmpty, let zone = report.zone else { continue }
                #expect(
                    satisfied.contains(zone),
                    "\(device ?? "") at \(report.timestamp): report says \(zone), regions \(satisfied)")
                checked += 1
            }
            #expect(checked > 10)
        }
    }
}
