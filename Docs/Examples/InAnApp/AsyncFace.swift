// The async face: an actor fed from the ranging callback, read as an AsyncSequence of reports
// by as many consumers as the app has (a map, a logger, a zone monitor).
import Foundation
import IndoorPositioning

enum AsyncFace {
    /// Ten seconds of ranging through a session: the reports the map drew, the number the log
    /// saw, and the zone events of an attached region monitor.
    static func run(plan: FloorPlan) async throws -> (map: [PositionReport], log: Int, zoneEvents: Int) {
        let session = try PositioningSession(plan: plan)
        let map = Task { [stream = await session.reports()] in
            var drawn: [PositionReport] = []
            func draw(_ report: PositionReport) { drawn.append(report) }  // an app draws the dot here
            for await report in stream { draw(report) }
            return drawn
        }
        // A consumer that only needs the latest positions: when it falls behind, older
        // reports are dropped for it (never for the map).
        let log = Task { [stream = await session.reports(bufferingPolicy: .bufferingNewest(8))] in
            var lines = 0
            for await _ in stream { lines += 1 }
            return lines
        }
        // A region monitor attached as one more consumer (one phone: samples without a device).
        let monitor = try AsyncRegionMonitor(plan: plan)
        try await monitor.add(.zone("meeting"), identifier: "meeting")
        await session.attach(monitor, device: nil)
        let zones = Task {
            var shown = 0
            func show(_ event: MonitorEvent) { shown += 1 }  // an app shows the entry or exit here
            for await event in monitor.events { show(event) }
            return shown
        }
        // The ranging callback: synchronous, any thread; submit keeps the callbacks' order.
        var phone = RangingSimulation(plan: plan)
        for second in 1...10 {
            for (time, beacons) in phone.callback(at: Double(second)) {
                session.submit(beacons.compactMap { RangingLoop.sample($0, at: time) })
            }
            // The one-second timer: the epoch that just ended is reported now.
            let now = Double(second)
            session.submitAdvance(to: now)
        }
        await session.finish()  // publishes the last epoch and ends every stream
        return (await map.value, await log.value, await zones.value)
    }
}
