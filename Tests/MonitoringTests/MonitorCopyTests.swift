import BeaconModel
import Foundation
import TestSupport
import Testing

@testable import Monitoring

/// A monitor set up once and copied per phone (as `indoorpos monitor` and a venue app do) costs
/// each copy only the regions that phone touched: its changes are kept apart from the shared
/// entries, so 10,000 circles copied for many phones are not 10,000 entries per phone.
@Suite("RegionMonitor copies: memory follows the regions touched")
struct MonitorCopyTests {
    /// 10,000 circles of radius 0.5–2 m scattered over 200 m × 200 m on the corridor plan's floor.
    static func template(seed: UInt64) throws -> RegionMonitor {
        var rng = SeededGenerator(seed: seed)
        var monitor = try RegionMonitor(plan: CorridorWalk.plan)
        for index in 0..<10_000 {
            let circle = CircleCondition(
                center: Point2D(x: Double.random(in: 0...200, using: &rng), y: Double.random(in: 0...200, using: &rng)),
                radius: Double.random(in: 0.5...2, using: &rng), level: 0)
            try monitor.add(.circle(circle), identifier: "c\(index)", assuming: .unsatisfied)
        }
        try monitor.add(.beacon(BeaconCondition(uuid: CorridorWalk.uuid)), identifier: "site", assuming: .unsatisfied)
        return monitor
    }

    /// Thirty positions, one a second, along a 15 m line from `start`, with sightings of one beacon.
    static func feed(_ monitor: inout RegionMonitor, from start: Point2D) -> [MonitorEvent] {
        var events: [MonitorEvent] = []
        for step in 0..<30 {
            let time = Double(step)
            let position = Point2D(x: start.x + 0.5 * Double(step), y: start.y)
            events += monitor.observe(
                BeaconSighting(
                    time: time, identity: BeaconIdentity(uuid: CorridorWalk.uuid, major: 1, minor: 1), rssi: -70))
            events += monitor.observe(PositionObservation(time: time, position: position, level: 0, accuracy: 1.5))
        }
        return events
    }

    @Test("each copy changes only regions near its path, and gives the events of a monitor of its own")
    func copiesStaySmall() throws {
        let template = try Self.template(seed: 5)
        var rng = SeededGenerator(seed: 6)
        var totalEvents = 0
        for _ in 0..<20 {
            let start = Point2D(
                x: Double.random(in: 10...170, using: &rng), y: Double.random(in: 10...190, using: &rng))
            var copy = template
            let events = Self.feed(&copy, from: start)
            var own = try Self.template(seed: 5)
            #expect(events == Self.feed(&own, from: start))
            totalEvents += events.count
            // Regions the path can reach: centres within 2 m radius + 3 m margin and slack of a
            // 15 m × 0 m path, about (15 + 2·5.5)·(2·5.5) m² of 40,000 m² holding 10,000 circles.
            let reachable = 10_000.0 * (15 + 11) * 11 / 40_000
            #expect(copy.entries.changedCount > 0)
            #expect(Double(copy.entries.changedCount) <= 2 * reachable, "changed \(copy.entries.changedCount)")
        }
        #expect(totalEvents > 20)
        // The template itself is untouched by its copies.
        #expect(template.entries.changedCount == 0)
        #expect(template.identifiers.allSatisfy { template.record(for: $0)?.state == .unsatisfied })
    }
}
