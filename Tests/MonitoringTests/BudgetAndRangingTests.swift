import BeaconModel
import Foundation
import Monitoring
import TestSupport
import Testing

@Suite("Region budget and ranging policy")
struct BudgetAndRangingTests {
    @Test("crossing a site with 100 regions and K = 20: the nearest are armed, never more than 20, parents first")
    func budget() throws {
        var rng = SeededGenerator(seed: 2024)
        let plan = CorridorWalk.plan
        var monitor = try RegionMonitor(plan: plan)
        // 76 small circles anywhere on a 200 × 200 m site, and 4 halls (r 20 m) with 5 nested desks each.
        for k in 0..<76 {
            let centre = Point2D(x: Double.random(in: 0...200, using: &rng), y: Double.random(in: 0...200, using: &rng))
            try monitor.add(
                .circle(CircleCondition(center: centre, radius: Double.random(in: 1...4, using: &rng), level: 0)),
                identifier: "spot-\(k)", assuming: .unsatisfied)
        }
        for h in 0..<4 {
            let hall = Point2D(x: 40 + 40 * Double(h), y: 100)
            try monitor.add(
                .circle(CircleCondition(center: hall, radius: 20, level: 0)), identifier: "hall-\(h)",
                assuming: .unsatisfied)
            for d in 0..<5 {
                let desk = Point2D(x: hall.x - 10 + 5 * Double(d), y: hall.y + 5)
                try monitor.add(
                    .circle(CircleCondition(center: desk, radius: 1.5, level: 0)), identifier: "desk-\(h)-\(d)",
                    assuming: .unsatisfied, parent: "hall-\(h)")
            }
        }
        #expect(monitor.identifiers.count == 100)

        var budget = RegionBudget(capacity: 20)
        var starts = 0, stops = 0, deskArmed = 0
        // Walk diagonally across the site and then along the halls, a position per second.
        var path: [Point2D] = []
        for t in 0..<200 { path.append(Point2D(x: Double(t), y: Double(t))) }
        for t in 0..<200 { path.append(Point2D(x: Double(t), y: 104)) }
        for (t, point) in path.enumerated() {
            let position = PositionObservation(time: Double(t), position: point, level: 0, accuracy: 1)
            _ = monitor.observe(position)
            let change = budget.update(position: position, monitor: monitor)
            starts += change.start.count
            stops += change.stop.count
            let armed = budget.armed
            #expect(armed.count <= 20)
            #expect(Set(armed).count == armed.count)
            // Eligible regions and their distances (0 while satisfied).
            var distances: [String: Double] = [:]
            for id in monitor.identifiers {
                let record = monitor.record(for: id)!
                if let parent = record.parent, monitor.record(for: parent)?.state != .satisfied { continue }
                guard case .circle(let c) = record.condition else { continue }
                distances[id] = record.state == .satisfied ? 0 : max(0, -c.depth(of: point))
            }
            #expect(armed.count == min(20, distances.count))
            let kth = distances.values.sorted()[min(20, distances.count) - 1]
            for id in armed {
                let d = try #require(distances[id], "\(id) armed but not eligible")
                #expect(d <= kth + budget.switchMargin, "\(id) at \(d) m armed; 20th nearest at \(kth) m")
                if let parent = monitor.record(for: id)?.parent {
                    #expect(armed.firstIndex(of: parent)! < armed.firstIndex(of: id)!)
                    deskArmed += 1
                }
            }
            for (id, d) in distances where d < kth - budget.switchMargin {
                #expect(armed.contains(id), "\(id) at \(d) m is not armed; 20th nearest at \(kth) m")
            }
        }
        #expect(deskArmed > 0, "nested regions were armed while inside their hall")
        print("budget: 400 positions, \(starts) starts and \(stops) stops for 100 regions, K = 20")
    }

    @Test("ranging starts when a beacon region is satisfied and stops when the last one needing it leaves")
    func ranging() throws {
        var monitor = try RegionMonitor(plan: CorridorWalk.plan)
        let one = BeaconCondition(CorridorWalk.identity(0))
        try monitor.add(.beacon(one), identifier: "a", assuming: .unsatisfied)
        try monitor.add(.beacon(one), identifier: "b", assuming: .unsatisfied)
        try monitor.add(.zone("shop"), identifier: "shop", assuming: .unsatisfied)
        var policy = RangingPolicy()
        var commands: [RangingPolicy.Command] = []
        for t in [0.0, 1.0] {
            commands += policy.handle(
                monitor.observe(BeaconSighting(time: t, identity: CorridorWalk.identity(0), rssi: -70)), in: monitor)
        }
        commands += policy.handle(
            monitor.observe(PositionObservation(time: 2, position: Point2D(x: 120, y: 2), level: 0, accuracy: 1)),
            in: monitor)
        #expect(commands == [.start(one)])
        #expect(policy.ranging[one] == ["a", "b"])
        commands = policy.handle(monitor.advance(to: 30), in: monitor)
        #expect(commands == [.stop(one)])
        #expect(policy.ranging.isEmpty)
    }
}
