// "Using it in an app" (Docs/Guide/UsingInAnApp.md), compiled as the `inanapp` target so that every
// snippet of that page builds with the package. Run: swift run inanapp
// It checks what it shows and exits with status 1 when something does not hold.
import Foundation
import IndoorPositioning

func require(_ condition: Bool, _ message: String) {
    if !condition {
        FileHandle.standardError.write(Data("inanapp: \(message)\n".utf8))
        exit(1)
    }
}

// 1. A plan in code; solver and tracker configured from it in one call.
let plan = try SitePlan.make()
var phone = RangingSimulation(plan: plan)
let firstSecond = phone.callback(at: 1).flatMap { delivery in
    delivery.beacons.compactMap { RangingLoop.sample($0, at: delivery.time) }
}
let (fix, estimate) = try SitePlan.solveByHand(plan, samples: firstSecond)
require(abs(fix.position.z - 1.4) < 1e-9, "the fix must stand at the plan's receiver height")
print("fix: \(fix)")

// 2. The ranging-callback loop with a timer: tracked reports, then predictions.
let (reports, statistics) = try RangingLoop.run(plan: plan)
require(reports.filter(\.isPredicted).count == 5, "five seconds without beacons must give five predictions")
for report in reports.suffix(7) { print(report) }

// 3. Drawing the last tracked report's 95 % ellipse.
let lastTracked = reports.last { $0.source == .tracked }!
let outline = EllipseDrawing.outline(of: lastTracked)
print(
    "1-σ ellipse: a = \(String(format: "%.2f", lastTracked.ellipse.semiMajor)) m, b = \(String(format: "%.2f", lastTracked.ellipse.semiMinor)) m; drawn at 95 %"
)
print("svg: <path d=\"\(EllipseDrawing.svgPath(outline).prefix(60))…\"/>")

// 4. Every public report type to JSON and back.
let json = try JSONRoundTrip.run(
    plan: plan, samples: firstSecond, fix: fix, estimate: estimate, reports: reports,
    statistics: statistics)
print("report as JSON: \(json.prefix(120))…")

// 5. The async face.
let (drawn, logged, zoneEvents) = try await AsyncFace.run(plan: plan)
require(drawn.count == 10, "ten seconds of ranging must give ten reports, got \(drawn.count)")
// The log keeps only the newest 8 reports when it falls behind, so it may see fewer.
require(logged >= 1 && logged <= drawn.count, "the log sees the newest reports")
require(zoneEvents >= 1, "the attached monitor must decide the meeting room's state")
print("async: \(drawn.count) reports to the map, \(logged) to the log, \(zoneEvents) zone event(s)")

// 6. Learning the beacons' models from the traffic, in a batch and online (saved and resumed).
let traffic = try TrafficLearning.run(plan: plan)
require(traffic.learned > 0, "the batch must learn some beacons from two minutes of traffic")
require(traffic.positions > 100, "the learned models must locate the traffic")
require(traffic.resumedUpdates == 1, "the resumed engine must take the saved models into use at once")
print("traffic: \(traffic.learned) beacons learned, \(traffic.positions) positions with them; resumed learner in use")
