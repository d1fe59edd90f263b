// The README's quick start, compiled as the `quickstart` target so that it cannot rot.
// Run from the repository root: swift run quickstart
import IndoorPositioning
import PositioningIO

let plan = try FloorPlan.load(path: "Docs/Examples/office-plan.json")
let calibration = try CalibrationFile.load(path: "Docs/Examples/office-calibration.json")
var engine = try PositioningEngine(
    plan: plan, calibration: calibration.beaconModels(),
    configuration: .init(reorderDelay: 0.5))

let samples = try RSSISampleReader(path: "Docs/Examples/office-rssi.csv")
while let sample = try samples.next() {  // RSSISample: timestamp, identity, rssi, device
    engine.push(sample)
    for report in engine.pull() {
        print(
            report.device ?? "-", report.timestamp, report.position.x, report.position.y,
            report.level, report.accuracy, report.zone ?? "-")
    }
}
for report in engine.finish() { print(report.device ?? "-", report.position.x, report.position.y) }
print(engine.statistics)
