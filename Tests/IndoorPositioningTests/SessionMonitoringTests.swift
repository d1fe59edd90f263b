import Foundation
import IndoorPositioning
import Testing
import TestSupport

@Suite("Positioning session with a region monitor")
struct SessionMonitoringTests {
    /// The simulated site with a zone on its west half.
    static func site() throws -> (site: SimulatedSite, plan: FloorPlan) {
        let site = try SimulatedSite(seed: 31, configuration: SimulatedSite.walk(duration: 120))
        var floor = site.plan.floors[0]
        floor.zones = [Zone(id: "west", polygon: Polygon([Point2D(x: 0, y: 0), Point2D(x: 12, y: 0),
                                                          Point2D(x: 12, y: 16), Point2D(x: 0, y: 16)]))]
        return (site, try FloorPlan(name: "zoned", defaults: site.plan.defaults, floors: [floor]))
    }

    static func regions() -> [(MonitorCondition, String)] {
        [(.zone("west"), "west"), (.beacon(BeaconCondition(SimulatedSite.identity(0))), "beacon-1"),
         (.circle(CircleCondition(center: Point2D(x: 18, y: 8), radius: 4, level: 0)), "east-circle")]
    }

    @Test("an attached monitor gives exactly the events of a monitor fed by hand in the engine's order")
    func attachedEqualsReplay() async throws {
        let (site, plan) = try Self.site()
        let samples = site.samples.sorted { $0.timestamp < $1.timestamp }

        // By hand: the value-type monitor fed with each sample, then the reports it completed.
        var engine = try PositioningEngine(plan: plan)
        var replay = try RegionMonitor(plan: plan)
        for (condition, id) in Self.regions() { try replay.add(condition, identifier: id) }
        var expected: [MonitorEvent] = []
        func deliver(_ reports: [PositionReport]) {
            guard !reports.isEmpty else { return }
            replay.takeSetApartBeacons(from: engine)
            for report in reports { expected += replay.observe(report) }
        }
        for sample in samples {
            engine.push(sample)
            expected += replay.observe(sample)
            deliver(engine.pull())
        }
        deliver(engine.finish())

        // Through the session.
        let session = try PositioningSession(plan: plan)
        let monitor = try AsyncRegionMonitor(plan: plan)
        for (condition, id) in Self.regions() { try await monitor.add(condition, identifier: id) }
        let collected = Task {
            var events: [MonitorEvent] = []
            for await event in monitor.events { events.append(event) }
            return events
        }
        let feeding = await session.attach(monitor)
        session.submit(samples)
        await session.finish()
        await feeding.value
        await monitor.finish()
        let events = await collected.value

        #expect(events == expected)
        #expect(Set(events.map(\.identifier)) == ["west", "beacon-1", "east-circle"])
        #expect(events.filter { $0.identifier == "west" }.count >= 2)
    }
}
