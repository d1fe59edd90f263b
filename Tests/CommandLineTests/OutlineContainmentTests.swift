import Foundation
import PositioningIO
import Testing

/// Every position `locate` writes lies inside the floor's outline, in every mode: the refined
/// positions of `--lag` and `--smooth` mix the steps of the track and the bank's members, and so
/// could leave it (before they were kept in: kolakowski-flat 7 of 304 at `--lag 3`, 46 of 304
/// smoothed; danis-office 1 and 2 of 698).
@Suite("locate: positions inside the outline in every mode")
struct OutlineContainmentTests {
    @Test(
        "causal, --lag 3 and --smooth, on both walking sets: no position outside the outline",
        arguments: [("kolakowski-flat", "robot_rssi.csv"), ("danis-office", "tracks_rssi.csv")])
    func inside(set: String, rssi: String) throws {
        let folder = Tool.sharedData.appendingPathComponent(set)
        let planPath = folder.appendingPathComponent("plan.json").path
        guard FileManager.default.fileExists(atPath: planPath) else {
            Issue.record("the shared data set \(set) is missing at \(folder.path)")
            return
        }
        let plan = try FloorPlan.load(path: planPath)
        for mode in [[], ["--lag", "3"], ["--smooth"]] {
            let run = try Tool.run(
                ["locate", "--plan", planPath, "--rssi", folder.appendingPathComponent(rssi).path, "--quiet"] + mode)
            #expect(run.status == 0)
            let lines = run.stdout.split(separator: "\n").dropFirst()
            #expect(lines.count > 100)
            var outside = 0
            for line in lines {
                let cells = line.split(separator: ",", omittingEmptySubsequences: false)
                guard let x = Double(cells[1]), let y = Double(cells[2]), let level = Int(cells[3]),
                    let outline = plan.floors.first(where: { $0.level == level })?.outline
                else { continue }
                if !outline.contains(Point2D(x: x, y: y)) { outside += 1 }
            }
            #expect(outside == 0, "\(set) \(mode): \(outside) positions outside the outline")
        }
    }
}
