import BeaconModel
import Foundation
import Monitoring
import Testing

@Suite("Plausibility of beacon entries")
struct PlausibilityTests {
    @Test("clean walks produce no flagged event", arguments: Array(1...30) as [UInt64])
    func clean(seed: UInt64) throws {
        var monitor = try WalkTests.monitor()
        try monitor.add(.beacon(BeaconCondition(uuid: CorridorWalk.uuid)), identifier: "site", assuming: .unsatisfied)
        let events = CorridorWalk(seed: seed).run(&monitor)
        #expect(events.filter { $0.state == .satisfied }.count >= 4)
        #expect(events.allSatisfy { $0.flag == nil }, "\(events.filter { $0.flag != nil })")
    }

    @Test(
        "a beacon moved (or spoofed) 110 m away from its place on the plan gives flagged entries",
        arguments: [1, 2, 3, 4, 5] as [UInt64])
    func moved(seed: UInt64) throws {
        var monitor = try WalkTests.monitor()
        // Beacon 3 belongs at x = 150 but transmits from x = 40, next to beacon 1.
        let events = CorridorWalk(seed: seed, transmitters: [30, 90, 40]).run(&monitor)
        let entries = events.filter { $0.identifier == "beacon-3" && $0.state == .satisfied }
        #expect(!entries.isEmpty)
        #expect(entries.allSatisfy { $0.flag == .outOfRange })
        #expect(events.filter { $0.identifier != "beacon-3" }.allSatisfy { $0.flag == nil })
    }

    @Test("a beacon of another floor, and one the engine set apart, are flagged")
    func otherFloorAndSetApart() throws {
        let upstairs = BeaconIdentity(uuid: CorridorWalk.uuid, major: 2, minor: 1)
        var floors = CorridorWalk.plan.floors
        floors.append(
            Floor(level: 1, elevation: 4, beacons: [Beacon(identity: upstairs, position: Point3D(x: 30, y: 0, z: 1.2))])
        )
        let plan = try FloorPlan(name: "two floors", defaults: CorridorWalk.plan.defaults, floors: floors)
        var monitor = try RegionMonitor(plan: plan)
        try monitor.add(.beacon(BeaconCondition(upstairs)), identifier: "upstairs", assuming: .unsatisfied)
        try monitor.add(
            .beacon(BeaconCondition(CorridorWalk.identity(0))), identifier: "beacon-1", assuming: .unsatisfied)
        _ = monitor.observe(PositionObservation(time: 0, position: Point2D(x: 30, y: 2), level: 0, accuracy: 1))
        var events: [MonitorEvent] = []
        for t in [1.0, 2.0] { events += monitor.observe(BeaconSighting(time: t, identity: upstairs, rssi: -65)) }
        #expect(events.map(\.flag) == [.otherFloor])
        monitor.setApartBeacons = [CorridorWalk.identity(0)]
        events = []
        for t in [3.0, 4.0] {
            events += monitor.observe(BeaconSighting(time: t, identity: CorridorWalk.identity(0), rssi: -65))
        }
        #expect(events.map(\.flag) == [.setApart])
        // Without a recent position nothing can be checked, so nothing is flagged.
        var fresh = try RegionMonitor(plan: plan)
        try fresh.add(.beacon(BeaconCondition(upstairs)), identifier: "upstairs", assuming: .unsatisfied)
        events = []
        for t in [1.0, 2.0] { events += fresh.observe(BeaconSighting(time: t, identity: upstairs, rssi: -65)) }
        #expect(events.count == 1 && events[0].flag == nil)
    }
}
