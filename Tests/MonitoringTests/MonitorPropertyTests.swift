import BeaconModel
import Foundation
import Monitoring
import TestSupport
import Testing

/// The monitor on seeded random streams (sightings of every strength, positions anywhere with
/// any accuracy, times that jump, equal times, and advances): it never reports the same state
/// twice in a row for a region, and never dates an event before the previous one.
@Suite("RegionMonitor: properties on random streams")
struct MonitorPropertyTests {
    @Test("never two equal states in a row per region, events in time order", arguments: [UInt64(1), 2, 3, 4, 5])
    func noRepeatedStates(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        var monitor = try RegionMonitor(plan: CorridorWalk.plan)
        try monitor.add(.beacon(BeaconCondition(uuid: CorridorWalk.uuid, major: 1)), identifier: "site")
        try monitor.add(.beacon(BeaconCondition(CorridorWalk.identity(1))), identifier: "desk", assuming: .satisfied)
        try monitor.add(.circle(CorridorWalk.circle), identifier: "circle")
        try monitor.add(.zone("shop"), identifier: "shop", assuming: .unsatisfied)
        var last: [String: MonitorEvent] = [:]
        var time = 0.0
        var events = 0
        for _ in 0..<20_000 {
            switch rng.next() % 20 {
            case 0: time += Double.random(in: 0...120, using: &rng)
            case 1: break  // an equal time
            default: time += Double.random(in: 0...0.6, using: &rng)
            }
            let emitted: [MonitorEvent]
            switch rng.next() % 3 {
            case 0:
                emitted = monitor.observe(
                    BeaconSighting(
                        time: time, identity: CorridorWalk.identity(Int(rng.next() % 3)),
                        rssi: Double.random(in: -100...(-40), using: &rng)))
            case 1:
                emitted = monitor.observe(
                    PositionObservation(
                        time: time,
                        position: Point2D(
                            x: Double.random(in: 0...200, using: &rng), y: Double.random(in: -4...8, using: &rng)),
                        level: Int(rng.next() % 4 == 0 ? 1 : 0), accuracy: Double.random(in: 0.2...12, using: &rng)))
            default:
                emitted = monitor.advance(to: time)
            }
            for event in emitted {
                events += 1
                if let previous = last[event.identifier] {
                    #expect(
                        previous.state != event.state,
                        "\(event.identifier) reported \(event.state) twice (seed \(seed))")
                    #expect(previous.date <= event.date, "\(event.identifier) went back in time (seed \(seed))")
                }
                last[event.identifier] = event
            }
        }
        #expect(events > 20)
    }
}
