import BeaconModel
import Foundation
import Monitoring
import Testing

@Suite("Snapshot and restore")
struct SnapshotTests {
    @Test(
        "snapshot → JSON → restore → continue gives the events of an uninterrupted run",
        arguments: [3, 8, 21] as [UInt64])
    func restoreContinues(seed: UInt64) throws {
        let walk = CorridorWalk(seed: seed)
        var uninterrupted = try WalkTests.monitor()
        try uninterrupted.add(
            .beacon(BeaconCondition(uuid: CorridorWalk.uuid)), identifier: "site", assuming: .unsatisfied)
        try uninterrupted.add(
            .circle(CircleCondition(center: Point2D(x: 120, y: 2), radius: 2, level: 0)),
            identifier: "till", assuming: .unsatisfied, parent: "shop")
        let start = uninterrupted
        let expected = walk.run(&uninterrupted)
        #expect(expected.count >= 12)

        // Interrupt at ten points along the walk, each time through a JSON round trip.
        for cut in stride(from: walk.inputs.count / 10, to: walk.inputs.count, by: walk.inputs.count / 10) {
            var first = start
            var events: [MonitorEvent] = []
            for input in walk.inputs[..<cut] { events += walk.feed(input, to: &first) }
            let data = try JSONEncoder().encode(first.snapshot())
            let snapshot = try JSONDecoder().decode(MonitorSnapshot.self, from: data)
            var second = try RegionMonitor(plan: CorridorWalk.plan, restoring: snapshot)
            #expect(second.snapshot() == first.snapshot())
            for input in walk.inputs[cut...] { events += walk.feed(input, to: &second) }
            events += second.advance(to: walk.duration + 60)
            #expect(events == expected, "cut at input \(cut)")
            #expect(second.record(for: "shop") == uninterrupted.record(for: "shop"))
        }
    }

    @Test("visits are kept: first entry, last exit, count and dwell survive a restore")
    func visitsSurvive() throws {
        let walk = CorridorWalk(seed: 5)
        var monitor = try WalkTests.monitor()
        _ = walk.run(&monitor)
        let restored = try RegionMonitor(plan: CorridorWalk.plan, restoring: monitor.snapshot())
        let visits = try #require(restored.record(for: "beacon-2")?.visits)
        #expect(visits.count == 1)
        let first = try #require(visits.firstEntry), exit = try #require(visits.lastExit)
        #expect(visits.totalDwell == exit - first)
        #expect(visits.current == nil)
    }

    @Test("a snapshot of a newer format or with a zone the plan lacks is refused")
    func refused() throws {
        var monitor = try RegionMonitor(plan: CorridorWalk.plan)
        try monitor.add(.zone("shop"), identifier: "shop")
        var snapshot = monitor.snapshot()
        snapshot.formatVersion = 2
        #expect(throws: MonitorError.self) { _ = try RegionMonitor(plan: CorridorWalk.plan, restoring: snapshot) }
        let otherPlan = try FloorPlan(name: "other", floors: [Floor(level: 0, beacons: CorridorWalk.plan.beacons)])
        #expect(throws: MonitorError.unknownZone(path: "shop", id: "shop")) {
            _ = try RegionMonitor(plan: otherPlan, restoring: monitor.snapshot())
        }
    }
}
