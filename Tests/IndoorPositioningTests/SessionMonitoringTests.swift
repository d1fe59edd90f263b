import Foundation
import IndoorPositioning
import PositioningIO
import TestSupport
import Testing

@Suite("Positioning session with a region monitor")
struct SessionMonitoringTests {
    /// The simulated site with a zone on its west half.
    static func site() throws -> (site: SimulatedSite, plan: FloorPlan) {
        let site = try SimulatedSite(seed: 31, configuration: SimulatedSite.walk(duration: 120))
        var floor = site.plan.floors[0]
        floor.zones = [
            Zone(
                id: "west",
                polygon: Polygon([
                    Point2D(x: 0, y: 0), Point2D(x: 12, y: 0),
                    Point2D(x: 12, y: 16), Point2D(x: 0, y: 16)
                ]))
        ]
        return (site, try FloorPlan(name: "zoned", defaults: site.plan.defaults, floors: [floor]))
    }

    static func regions() -> [(MonitorCondition, String)] {
        [
            (.zone("west"), "west"), (.beacon(BeaconCondition(SimulatedSite.identity(0))), "beacon-1"),
            (.circle(CircleCondition(center: Point2D(x: 18, y: 8), radius: 4, level: 0)), "east-circle")
        ]
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
        let feeding = await session.attach(monitor, device: nil)
        session.submit(samples)
        await session.finish()
        await feeding.value
        let events = await collected.value  // ends on its own: the session's finish finishes the monitor

        #expect(events == expected)
        #expect(Set(events.map(\.identifier)) == ["west", "beacon-1", "east-circle"])
        #expect(events.filter { $0.identifier == "west" }.count >= 2)
    }
}

@Suite("The guide's monitor snippet on the bundled sample")
struct GuideMonitorSnippetTests {
    @Test(
        "attach(_:device:) then for-await over monitor.events runs to completion after session.finish(), with the walk's events"
    )
    func snippet() async throws {
        let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Docs/Examples")
        let plan = try FloorPlan.load(path: examples.appendingPathComponent("office-plan.json").path)
        let regions = try RegionsFile.load(
            path: examples.appendingPathComponent("office-regions.json").path, plan: plan)
        let reader = try RSSISampleReader(path: examples.appendingPathComponent("office-rssi.csv").path)
        var samples: [RSSISample] = []
        while let sample = try reader.next() { samples.append(sample) }
        let phone = try #require(samples.first?.device)

        // The snippet of Docs/Guide/UsingInAnApp.md, with this file's device name.
        let session = try PositioningSession(plan: plan)
        let monitor = try AsyncRegionMonitor(plan: plan)
        for region in regions.regions { try await monitor.add(region.condition, identifier: region.id) }
        await session.attach(monitor, device: phone)
        let reading = Task {
            var events: [MonitorEvent] = []
            for await event in monitor.events { events.append(event) }  // ends when the session finishes
            return events
        }
        for sample in samples { _ = await session.push(sample) }
        await session.finish()
        // Guard against a hang: if the stream did not end within 60 s, end it and fail.
        let watchdog = Task {
            try await Task.sleep(nanoseconds: 60_000_000_000)
            await monitor.finish()
            return true
        }
        let events = await reading.value
        watchdog.cancel()
        #expect(await (try? watchdog.value) != true, "monitor.events did not end after session.finish()")
        #expect(!events.isEmpty)
        #expect(events.allSatisfy { !$0.identifier.isEmpty })
    }
}
