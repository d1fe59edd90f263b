import BeaconModel
import Foundation
import PositioningIO
import TestSupport
import Testing

/// `calibrate --from-traffic` writes the loss it learns for walls the plan gives none
/// (`wallAttenuation`), so that `locate --calibration` with the file positions as
/// `locate --self-calibrate` does: a plan of two rooms parted by a wall with a door, whose
/// attenuation the plan leaves out, and three phones walking through the door (10 dB per wall in
/// the simulation, 3 dB of seeded shadowing).
@Suite("indoorpos: the learned wall loss in the calibration file")
struct LearnedWallLossTests {
    static let beacons = [(0.3, 2.0), (5.0, 9.7), (9.7, 3.0), (10.3, 2.0), (15.0, 9.7), (19.7, 5.0)]
    static let uuid = "F7826DA6-4FA2-4E98-8024-BC5B71E0893E"

    /// Two 10 × 10 m rooms; the wall at x = 10 runs from y = 0 to 8 (the door is y 8–10).
    static let plan = """
        { "name": "two rooms", "floors": [ { "level": 0,
          "outline": [[0, 0], [20, 0], [20, 10], [0, 10]],
          "walls": [ { "from": [10, 0], "to": [10, 8] } ],
          "beacons": [
        \(beacons.enumerated().map { i, b in
            #"    { "uuid": "\#(uuid)", "major": 1, "minor": \#(i + 1), "x": \#(b.0), "y": \#(b.1), "z": 2.5 }"#
        }.joined(separator: ",\n"))
          ] } ] }
        """

    /// Each phone walks west room → door → east room → door → west room at 1 m/s, hearing two
    /// beacons every 0.1 s.
    static func rssi() -> String {
        let route = [(4.0, 4.0), (9.0, 9.0), (11.0, 9.0), (16.0, 4.0), (11.0, 9.0), (9.0, 9.0), (4.0, 4.0)]
        let walls = FloorWalls([Wall(from: Point2D(x: 10, y: 0), to: Point2D(x: 10, y: 8))], attenuation: 10)
        var text = "timestamp,device,uuid,major,minor,rssi\n"
        for phone in 1...3 {
            var random = SeededGenerator(seed: UInt64(40 + phone))
            var t = 0.0
            for (a, b) in zip(route, route.dropFirst()) {
                let length = ((b.0 - a.0) * (b.0 - a.0) + (b.1 - a.1) * (b.1 - a.1)).squareRoot()
                let steps = Int((length * 10).rounded(.up))
                for k in 0..<steps {
                    let f = Double(k) / Double(steps)
                    let (x, y) = (a.0 + f * (b.0 - a.0), a.1 + f * (b.1 - a.1))
                    let i = Int((t * 10).rounded()) % 3
                    for j in [i, i + 3] {
                        let (bx, by) = beacons[j]
                        let d = ((x - bx) * (x - bx) + (y - by) * (y - by) + 1.3 * 1.3).squareRoot()
                        let rssi = -59 - 20 * log10(d) - walls.loss(bx, by, x, y) + random.gaussian(sigma: 3)
                        text += String(format: "%.1f,phone%d,%@,1,%d,%.0f\n", t, phone, uuid, j + 1, rssi.rounded())
                    }
                    t += 0.1
                }
            }
        }
        return text
    }

    @Test(
        "the file carries the learned loss, the summary prints it, and locate --calibration with the file gives the bytes of locate --self-calibrate; without the key the standard loss gives other positions"
    )
    func lossInTheFile() throws {
        let folder = try ScratchFolder("learned-wall-loss")
        let plan = try folder.file("plan.json", Self.plan)
        let rssi = try folder.file("rssi.csv", Self.rssi())
        let site = folder.path("site.json")
        let learned = try Tool.run(["calibrate", "--from-traffic", "--plan", plan, "--rssi", rssi, "--output", site])
        #expect(learned.status == 0, "\(learned.stderr)")
        let file = try CalibrationFile.load(path: site)
        let loss = try #require(file.wallAttenuation, "\(learned.stderr)")
        #expect(FloorPlan.wallAttenuationRange.contains(loss))
        // Learned, not the standard value the engine would otherwise take.
        #expect(loss != PlanDefaults.standardWallAttenuation)
        #expect(
            learned.stderr.contains(
                String(format: "walls the plan gives no loss: learned %.2f dB per wall (wallAttenuation)", loss)),
            "\(learned.stderr)")
        let viaFile = try Tool.run(["locate", "--plan", plan, "--rssi", rssi, "--calibration", site, "--quiet"])
        let inOne = try Tool.run(["locate", "--plan", plan, "--rssi", rssi, "--self-calibrate", "--quiet"])
        #expect(viaFile.status == 0 && inOne.status == 0, "\(viaFile.stderr)\(inOne.stderr)")
        #expect(!viaFile.stdout.isEmpty && viaFile.stdout == inOne.stdout)
        var withoutLoss = file
        withoutLoss.wallAttenuation = nil
        let bare = try folder.file("site-without-loss.json", String(decoding: withoutLoss.jsonData(), as: UTF8.self))
        let standard = try Tool.run(["locate", "--plan", plan, "--rssi", rssi, "--calibration", bare, "--quiet"])
        #expect(standard.status == 0 && standard.stdout != inOne.stdout)
    }
}
