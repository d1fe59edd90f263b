// The async face: an actor fed from the ranging callback, read as an AsyncSequence of reports
// by as many consumers as the app has (a map, a logger, a zone monitor).
import Foundation
import IndoorPositioning

enum AsyncFace {
    static func run(plan: FloorPlan) async throws -> (map: [PositionReport], log: Int) {
        let session = try PositioningSession(plan: plan)
        let map = Task { [stream = await session.reports()] in
            var drawn: [PositionReport] = []
            for await report in stream { drawn.append(report) }  // draw(report) in an app
            return drawn
        }
        // A consumer that only needs the latest positions: when it falls behind, older
        // reports are dropped for it (never for the map).
        let log = Task { [stream = await session.reports(bufferingPolicy: .bufferingNewest(8))] in
            var lines = 0
            for await _ in stream { lines += 1 }
            return lines
        }
        // The ranging callback: synchronous, any thread; submit keeps the callbacks' order.
        var phone = RangingSimulation(plan: plan)
        for second in 1...10 {
            for (time, beacons) in phone.callback(at: Double(second)) {
                session.submit(beacons.compactMap { RangingLoop.sample($0, at: time) })
            }
        }
        await session.finish()  // publishes the last epoch and ends both streams
        return (await map.value, await log.value)
    }
}
