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

    @Test("a copy's first sightings change only the beacon regions they match, with the events of an eager monitor")
    func beaconRegionsArmedLazily() throws {
        // 2,000 exact beacon regions, a wildcard, and a child: each copy's first input armed
        // every one of them (49 s for 30,000 one-sample phones in `indoorpos monitor`).
        var template = try RegionMonitor(
            plan: CorridorWalk.plan, hysteresis: Hysteresis(beacon: .init(enterCount: 1, exitDelay: 5)))
        for index in 0..<2000 {
            let identity = BeaconIdentity(
                uuid: CorridorWalk.uuid, major: UInt16(1 + index / 1000), minor: UInt16(index % 1000))
            try template.add(.beacon(BeaconCondition(identity)), identifier: "b\(index)", assuming: .unsatisfied)
        }
        try template.add(.beacon(BeaconCondition(uuid: CorridorWalk.uuid)), identifier: "site", assuming: .unsatisfied)
        try template.add(
            .beacon(BeaconCondition(uuid: CorridorWalk.uuid, major: 1)), identifier: "floor", assuming: .unsatisfied,
            parent: "site")
        var copy = template
        let sighting = BeaconSighting(
            time: 10, identity: BeaconIdentity(uuid: CorridorWalk.uuid, major: 1, minor: 7), rssi: -70)
        var events = copy.observe(sighting)
        #expect(events.map(\.identifier) == ["b7", "site", "floor"])
        #expect(copy.entries.changedCount <= 4, "changed \(copy.entries.changedCount)")
        // Silence then makes them leave at the last sighting plus the exit delay, as in a
        // monitor that armed every region at its first input (the scan monitor of the tests).
        var scan = try ScanMonitor(
            plan: CorridorWalk.plan, hysteresis: Hysteresis(beacon: .init(enterCount: 1, exitDelay: 5)))
        for id in template.identifiers {
            let record = template.record(for: id)!
            try scan.add(record.condition, identifier: id, assuming: .unsatisfied, parent: record.parent)
        }
        #expect(scan.observe(sighting) == events)
        events = copy.observe(
            BeaconSighting(time: 12, identity: BeaconIdentity(uuid: CorridorWalk.uuid, major: 2, minor: 3), rssi: -70))
        #expect(
            events
                == scan.observe(
                    BeaconSighting(
                        time: 12, identity: BeaconIdentity(uuid: CorridorWalk.uuid, major: 2, minor: 3), rssi: -70)))
        #expect(copy.advance(to: 30) == scan.advance(to: 30))
        for id in template.identifiers { #expect(copy.record(for: id) == scan.record(for: id)) }
        // A snapshot carries the start of every region's silence, as an eager monitor's does.
        let restored = try RegionMonitor(plan: CorridorWalk.plan, restoring: copy.snapshot())
        #expect(restored.snapshot() == copy.snapshot())
        #expect(template.entries.changedCount == 0)
    }
}
