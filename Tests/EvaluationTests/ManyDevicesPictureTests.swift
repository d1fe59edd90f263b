import Evaluation
import Foundation
import PositioningIO
import TestSupport
import Testing

@testable import Rendering

@Suite("render: many devices and static truth")
struct ManyDevicesPictureTests {
    @Test(
        "2,000 fingerprint-style devices: a legend of at most 12 entries, no taller than twice its width, survey points visible"
    )
    func fingerprints() throws {
        let plan = try FloorPlan.load(path: PlanPictureTests.examples.appendingPathComponent("office-plan.json").path)
        var fixes = "timestamp,device,x,y,floor,accuracy\n"
        var truth = "timestamp,device,x,y,floor\n"
        var g = SeededGenerator(seed: 11)
        for device in 0..<2000 {
            let x = Double(device % 40) * 0.5, y = Double(device / 40 % 35) * 0.5
            let t = Double(device) * 10
            truth += "\(t),d\(device),\(x),\(y),0\n\(t + 120),d\(device),\(x),\(y),0\n"
            for k in 0..<(1 + device % 3) {
                fixes +=
                    "\(t + 10 + Double(k) * 30),d\(device),\(x + g.gaussian(sigma: 1.5)),\(y + g.gaussian(sigma: 1.5)),0,1.8\n"
            }
        }
        let picture = try PlanPicture(
            plan: plan, fixes: TrackTable.read(text: fixes), truth: TrackTable.read(text: truth))
        #expect(picture.legendEntries.count <= 12)
        let named = picture.namedDevices.count
        #expect(named >= 1 && named < 12)
        #expect(picture.legendEntries.contains { $0.label == "\(2000 - named) other devices" })
        #expect(picture.size.height <= 2 * picture.size.width)
        let svg = try #require(SVGElements.parse(picture.svg()))
        // Every survey point (two rows, equal positions) is drawn as a marker.
        #expect(svg.elements.filter { $0.attributes["data-truth-point"] != nil }.count >= 1400)
    }

    @Test("a single truth row is a marker, and the ellipses widen the view instead of being cut")
    func markerAndView() throws {
        let plan = try FloorPlan.load(path: PlanPictureTests.examples.appendingPathComponent("office-plan.json").path)
        let truth = try TrackTable.read(text: "timestamp,x,y\n5,3,3\n")
        let fixes = try TrackTable.read(text: "timestamp,x,y,accuracy\n5,1,1,4\n")
        let picture = try PlanPicture(plan: plan, fixes: fixes, truth: truth)
        let svg = try #require(SVGElements.parse(picture.svg()))
        #expect(svg.elements.filter { $0.attributes["data-truth-point"] != nil }.count == 1)
        // The fix's 4-m circle reaches x = −3 m, left of the plan's outline at 0: the view starts there.
        let (left, _) = picture.projection.pixel(-3, 1)
        #expect(left >= picture.projection.left - 1e-9)
    }
}
