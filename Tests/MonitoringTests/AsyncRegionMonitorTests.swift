import BeaconModel
import Foundation
import Monitoring
import Testing

@Suite("AsyncRegionMonitor under concurrency")
struct AsyncRegionMonitorTests {
    @Test("many tasks adding, removing and reading while a walk is fed: the walk's events are exact")
    func concurrentUse() async throws {
        let walk = CorridorWalk(seed: 11)
        var reference = try WalkTests.monitor()
        let expected = walk.run(&reference)

        let monitor = AsyncRegionMonitor(try WalkTests.monitor())
        let collector = Task {
            var received: [MonitorEvent] = []
            for await event in monitor.events { received.append(event) }
            return received
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for input in walk.inputs {
                    switch input {
                    case .sighting(let s): await monitor.observe(s)
                    case .position(let p): await monitor.observe(p)
                    }
                }
                await monitor.advance(to: walk.duration + 60)
            }
            for k in 0..<64 {
                group.addTask {
                    let id = "temporary-\(k)"
                    for round in 0..<20 {
                        try await monitor.add(
                            .circle(
                                CircleCondition(
                                    center: Point2D(x: Double(k), y: 2), radius: 1 + Double(round), level: 0)),
                            identifier: id, assuming: .unsatisfied)
                        _ = await monitor.record(for: id)
                        _ = await monitor.identifiers
                        _ = await monitor.snapshot()
                        await monitor.remove(id)
                    }
                }
            }
            try await group.waitForAll()
        }
        await monitor.finish()
        let received = await collector.value
        let fixed = Set(["beacon-1", "beacon-2", "beacon-3", "circle", "shop"])
        #expect(received.filter { fixed.contains($0.identifier) } == expected)
        #expect(await monitor.identifiers == ["beacon-1", "beacon-2", "beacon-3", "circle", "shop"])
        // Temporary regions' events alternate per region and never repeat a state.
        var last: [String: MonitorState] = [:]
        for event in received where !fixed.contains(event.identifier) {
            #expect(last[event.identifier] != event.state || event.state == .satisfied)
            last[event.identifier] = event.state
        }
    }

    @Test("an injected clock lets beacon exits fall due without input")
    func injectedClock() async throws {
        let time = TestClock()
        let monitor = try AsyncRegionMonitor(plan: CorridorWalk.plan, clock: { time.now })
        try await monitor.add(
            .beacon(BeaconCondition(CorridorWalk.identity(0))), identifier: "b", assuming: .unsatisfied)
        await monitor.observe(BeaconSighting(time: 100, identity: CorridorWalk.identity(0), rssi: -70))
        await monitor.observe(BeaconSighting(time: 101, identity: CorridorWalk.identity(0), rssi: -70))
        time.now = 110
        #expect(await monitor.advanceToNow().isEmpty)
        time.now = 130
        #expect(await monitor.advanceToNow() == [MonitorEvent(identifier: "b", state: .unsatisfied, date: 116)])
    }
}

/// A settable clock for tests.
// @unchecked Sendable is sound: the only mutable state, `value`, is read and written only
// while `lock` is held, and `lock` itself is never replaced.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0.0
    var now: Double {
        get { lock.withLock { value } }
        set { lock.withLock { value = newValue } }
    }
}
