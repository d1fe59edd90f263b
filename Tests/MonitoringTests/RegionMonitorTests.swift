import BeaconModel
import Foundation
import Monitoring
import Testing

@Suite("RegionMonitor: CLMonitor's shape and rules")
struct RegionMonitorTests {
    static let plan = CorridorWalk.plan
    static func sighting(_ t: Double, _ minor: Int = 1, rssi: Double = -70) -> BeaconSighting {
        BeaconSighting(time: t, identity: CorridorWalk.identity(minor - 1), rssi: rssi)
    }
    static func at(_ t: Double, x: Double, y: Double = 2, level: Int = 0, accuracy: Double = 1) -> PositionObservation {
        PositionObservation(time: t, position: Point2D(x: x, y: y), level: level, accuracy: accuracy)
    }

    @Test("a wildcard enters on two samples within the window, names the beacon, leaves after the exit delay")
    func wildcardRefinement() throws {
        var monitor = try RegionMonitor(plan: Self.plan)
        try monitor.add(.beacon(BeaconCondition(uuid: CorridorWalk.uuid, major: 1)), identifier: "site")
        #expect(monitor.record(for: "site")?.state == .unknown)
        #expect(monitor.observe(Self.sighting(0, 2)).isEmpty)  // one sample is not enough
        let entered = monitor.observe(Self.sighting(4, 2))
        #expect(
            entered == [
                MonitorEvent(identifier: "site", state: .satisfied, date: 4, refinement: CorridorWalk.identity(1))
            ])
        #expect(monitor.observe(Self.sighting(18, 3)).isEmpty)  // 14 s later: still inside
        #expect(monitor.advance(to: 32.9).isEmpty)
        // The exit is dated when the delay ran out (18 + 15), whichever later input reveals it.
        #expect(monitor.advance(to: 40) == [MonitorEvent(identifier: "site", state: .unsatisfied, date: 33)])
        let record = try #require(monitor.record(for: "site"))
        #expect(record.visits.count == 1 && record.visits.firstEntry == 4 && record.visits.lastExit == 33)
        #expect(record.visits.totalDwell == 29)
    }

    @Test("samples further apart than the entry window do not enter; RSSI thresholds are separate")
    func thresholds() throws {
        var rule = Hysteresis()
        rule.beacon.enterRSSI = -70
        rule.beacon.exitRSSI = -80
        var monitor = try RegionMonitor(plan: Self.plan, hysteresis: rule)
        try monitor.add(.beacon(BeaconCondition(CorridorWalk.identity(0))), identifier: "desk", assuming: .unsatisfied)
        #expect(monitor.observe(Self.sighting(0)).isEmpty)
        #expect(monitor.observe(Self.sighting(5.5)).isEmpty)  // 5.5 s apart > 5-s window
        #expect(monitor.observe(Self.sighting(6, rssi: -75)).isEmpty)  // too weak to enter
        #expect(monitor.observe(Self.sighting(7)).count == 1)  // 5.5 and 7: entered
        // −78 dBm is too weak to enter but keeps the region; −85 does not.
        #expect(monitor.observe(Self.sighting(20, rssi: -78)).isEmpty)
        #expect(monitor.observe(Self.sighting(34, rssi: -85)).isEmpty)
        #expect(monitor.advance(to: 36) == [MonitorEvent(identifier: "desk", state: .unsatisfied, date: 35)])
    }

    @Test("unknown resolves to unsatisfied on evidence; an assumed state is corrected")
    func assumptions() throws {
        var monitor = try RegionMonitor(plan: Self.plan)
        try monitor.add(.circle(CorridorWalk.circle), identifier: "c-unknown")
        try monitor.add(.circle(CorridorWalk.circle), identifier: "c-assumed-in", assuming: .satisfied)
        try monitor.add(
            .beacon(BeaconCondition(CorridorWalk.identity(0))), identifier: "b-assumed-in", assuming: .satisfied)
        var events = monitor.observe(Self.at(0, x: 0))
        #expect(events.map(\.identifier) == ["c-unknown"])  // clear evidence: unknown → unsatisfied
        events = monitor.observe(Self.at(4, x: 0))
        #expect(events.map(\.identifier) == ["c-assumed-in"])  // 4 s outside by the margin
        events = monitor.advance(to: 20)
        #expect(events == [MonitorEvent(identifier: "b-assumed-in", state: .unsatisfied, date: 15)])
    }

    @Test("adding an existing identifier replaces it; remove takes nested regions along")
    func replaceAndRemove() throws {
        var monitor = try RegionMonitor(plan: Self.plan)
        try monitor.add(.zone("shop"), identifier: "shop")
        try monitor.add(.circle(CorridorWalk.circle), identifier: "inner", parent: "shop")
        try monitor.add(
            .circle(CircleCondition(center: Point2D(x: 120, y: 2), radius: 1, level: 0)), identifier: "shop")
        #expect(monitor.identifiers == ["shop", "inner"])
        #expect(
            monitor.record(for: "shop")?.condition
                == .circle(CircleCondition(center: Point2D(x: 120, y: 2), radius: 1, level: 0)))
        #expect(monitor.remove("shop") == ["inner", "shop"])
        #expect(monitor.identifiers.isEmpty)
        #expect(monitor.remove("shop").isEmpty)
    }

    @Test("a child is armed only while its parent is satisfied, and leaves with it")
    func hierarchy() throws {
        var monitor = try RegionMonitor(plan: Self.plan)
        try monitor.add(.zone("shop"), identifier: "shop", assuming: .unsatisfied)
        try monitor.add(
            .circle(CircleCondition(center: Point2D(x: 120, y: 2), radius: 2, level: 0)),
            identifier: "till", assuming: .unsatisfied, parent: "shop")
        // Position at the till: both enter, parent first.
        var events = monitor.observe(Self.at(0, x: 120))
        #expect(events.map(\.identifier) == ["shop", "till"])
        // Leave the shop: the till leaves at the same time as the shop.
        for t in 1...4 { #expect(monitor.observe(Self.at(Double(t), x: 100)).isEmpty) }
        events = monitor.observe(Self.at(5, x: 100))
        #expect(
            events == [
                MonitorEvent(identifier: "shop", state: .unsatisfied, date: 5),
                MonitorEvent(identifier: "till", state: .unsatisfied, date: 5)
            ])
        #expect(monitor.record(for: "shop")?.state == .unsatisfied)
        #expect(monitor.record(for: "till")?.state == .unsatisfied)
        // A child of a parent that never enters is never armed.
        try monitor.add(.beacon(BeaconCondition(CorridorWalk.identity(2))), identifier: "gate", assuming: .unsatisfied)
        try monitor.add(
            .beacon(BeaconCondition(CorridorWalk.identity(0))), identifier: "child", assuming: .unsatisfied,
            parent: "gate")
        #expect(monitor.observe(Self.sighting(10, 1)).isEmpty)
        #expect(monitor.observe(Self.sighting(11, 1)).isEmpty)
    }

    @Test("positions too uncertain neither enter nor leave; another floor is outside")
    func accuracyAndFloors() throws {
        var monitor = try RegionMonitor(plan: Self.plan)
        try monitor.add(.circle(CorridorWalk.circle), identifier: "c", assuming: .unsatisfied)
        #expect(monitor.observe(Self.at(0, x: 60, accuracy: 6)).isEmpty)  // worse than 5 m: ignored
        #expect(monitor.observe(Self.at(1, x: 62, accuracy: 2)).isEmpty)  // depth 1 − 1 < 0.5
        #expect(monitor.observe(Self.at(2, x: 60, accuracy: 2)).count == 1)
        for t in 3...7 { _ = monitor.observe(Self.at(Double(t), x: 60, level: 1)) }  // 4 s dwell
        #expect(monitor.record(for: "c")?.state == .unsatisfied)
    }

    @Test("bad conditions are refused with the identifier named")
    func badConditions() throws {
        var monitor = try RegionMonitor(plan: Self.plan)
        #expect(throws: MonitorError.unknownZone(path: "x", id: "nowhere")) {
            try monitor.add(.zone("nowhere"), identifier: "x")
        }
        #expect(throws: MonitorError.invalidRadius(path: "x", value: "-1.0")) {
            try monitor.add(.circle(CircleCondition(center: .zero, radius: -1, level: 0)), identifier: "x")
        }
        #expect(throws: MonitorError.self) {
            try monitor.add(
                .circle(CircleCondition(center: Point2D(x: .nan, y: 0), radius: 1, level: 0)), identifier: "x")
        }
        #expect(throws: MonitorError.missingParent(path: "x", parent: "p")) {
            try monitor.add(.zone("shop"), identifier: "x", parent: "p")
        }
        try monitor.add(.zone("shop"), identifier: "a")
        try monitor.add(.zone("shop"), identifier: "b", parent: "a")
        #expect(throws: MonitorError.parentCycle(path: "a", cycle: ["a", "b", "a"])) {
            try monitor.add(.zone("shop"), identifier: "a", parent: "b")
        }
        #expect(monitor.identifiers == ["a", "b"])
    }
}

@Suite("ZoneHysteresis")
struct ZoneHysteresisTests {
    static let floor = Floor(
        level: 0,
        zones: [
            Zone(
                id: "a",
                polygon: Polygon([
                    Point2D(x: 0, y: 0), Point2D(x: 10, y: 0), Point2D(x: 10, y: 10), Point2D(x: 0, y: 10)
                ])),
            Zone(
                id: "b",
                polygon: Polygon([
                    Point2D(x: 10, y: 0), Point2D(x: 20, y: 0), Point2D(x: 20, y: 10), Point2D(x: 10, y: 10)
                ]))
        ])

    @Test("pacing on the shared edge keeps the first zone; a zone entered by the margin is kept until the exit rule")
    func sharedEdge() {
        var zones = ZoneHysteresis()
        var reported: [String?] = []
        for t in 0..<60 {
            let x = 10 + (t % 2 == 0 ? -0.8 : 0.8)  // ±0.8 m around the edge every second
            reported.append(
                zones.update(time: Double(t), position: Point2D(x: x, y: 5), accuracy: 1, floor: Self.floor))
        }
        #expect(Set(reported) == ["a"])
        // Walk into b: 2 m inside b enters b by the margin at once; a was never entered by the
        // rule (as a zone region fed these positions), so b is reported from t = 60.
        #expect(zones.update(time: 60, position: Point2D(x: 12, y: 5), accuracy: 1, floor: Self.floor) == "b")
        // Back to the edge: b is kept until the exit rule leaves it (4 s at ≥ 1.5 m outside).
        for t in 61..<70 {
            #expect(
                zones.update(time: Double(t), position: Point2D(x: 9.2, y: 5), accuracy: 1, floor: Self.floor) == "b")
        }
    }
}

@Suite("RegionMonitor on bad input")
struct RegionMonitorBadInputTests {
    @Test("NaN or infinite times, RSSI, coordinates and accuracies are ignored: no event, no crash, state unchanged")
    func nonFiniteInputs() throws {
        var monitor = try RegionMonitor(plan: CorridorWalk.plan)
        try monitor.add(.beacon(BeaconCondition(CorridorWalk.identity(0))), identifier: "b", assuming: .unsatisfied)
        try monitor.add(.circle(CorridorWalk.circle), identifier: "c", assuming: .unsatisfied)
        let id = CorridorWalk.identity(0)
        for value in [Double.nan, .infinity, -.infinity] {
            #expect(monitor.observe(BeaconSighting(time: value, identity: id, rssi: -60)).isEmpty)
            #expect(monitor.observe(BeaconSighting(time: 1, identity: id, rssi: value)).isEmpty)
            #expect(
                monitor.observe(PositionObservation(time: value, position: Point2D(x: 60, y: 2), level: 0, accuracy: 1))
                    .isEmpty)
            #expect(
                monitor.observe(PositionObservation(time: 2, position: Point2D(x: value, y: 2), level: 0, accuracy: 1))
                    .isEmpty)
            #expect(
                monitor.observe(PositionObservation(time: 2, position: Point2D(x: 60, y: 2), level: 0, accuracy: value))
                    .isEmpty)
            #expect(monitor.advance(to: value).isEmpty)
        }
        #expect(monitor.record(for: "b")?.state == .unsatisfied)
        #expect(monitor.record(for: "c")?.state == .unsatisfied)
        #expect(monitor.now == nil)  // a bad input does not even move the clock
        var nanRule = Hysteresis()
        nanRule.position.exitDwell = .nan
        #expect(throws: MonitorError.invalidHysteresis(path: "hysteresis", detail: "exitDwell must be ≥ 0 s, got nan"))
        {
            _ = try RegionMonitor(plan: CorridorWalk.plan, hysteresis: nanRule)
        }
        #expect(throws: MonitorError.self) { try monitor.add(.zone("shop"), identifier: "z", hysteresis: nanRule) }
    }
}
