import Evaluation
import Foundation
import PositioningIO
import Testing

@testable import Rendering

/// Labels on a plan picture with several static devices (files on disk, as `render` reads
/// them): the legend shows the diamond of a point held still, labels are drawn over ellipses
/// and tracks, and no label covers another.
@Suite("render: labels and the legend with several static devices")
struct LabelLayoutTests {
    static func write(_ folder: URL, _ name: String, _ text: String) throws -> String {
        let url = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    @Test(
        "three phones held still at zone centres and next to a beacon: diamond in the legend, labels over ellipses, none overlapping"
    )
    func staticDevices() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("labels-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let places = [("ph1", 3.55, 8.82), ("ph2", 10.05, 8.82), ("ph3", 7.0, 7.4)]
        var truth = "device,timestamp,x,y,floor\n", fixes = "timestamp,x,y,floor,accuracy,device\n"
        for (name, x, y) in places {
            truth += "\(name),0,\(x),\(y),0\n\(name),10,\(x),\(y),0\n"
            for t in 0..<10 { fixes += "\(t),\(x + 0.1 * Double(t % 3)),\(y - 0.1 * Double(t % 2)),0,3,\(name)\n" }
        }
        let events =
            "timestamp,region,state,device\n1,west,satisfied,ph1\n1,centre,satisfied,ph2\n5,west,unsatisfied,ph1\n6,west,satisfied,ph1\n2,table,satisfied,ph2\n"
        let plan = try FloorPlan.load(path: PlanPictureTests.examples.appendingPathComponent("office-plan.json").path)
        let regions = try RegionsFile.load(
            path: PlanPictureTests.examples.appendingPathComponent("office-regions.json").path, plan: plan)
        let picture = try PlanPicture(
            plan: plan, fixes: try TrackTable.read(path: try Self.write(folder, "fixes.csv", fixes)),
            truth: try TrackTable.read(path: try Self.write(folder, "truth.csv", truth)),
            events: try RegionEvent.read(path: try Self.write(folder, "events.csv", events)), regions: regions)
        let svg = try #require(SVGElements.parse(picture.svg()))

        // The legend: a point held still has its own entry (a diamond), and no track is claimed.
        #expect(svg.texts.contains("true position held still"))
        #expect(!svg.texts.contains("true track"))
        #expect(svg.elements.filter { $0.attributes["data-truth-point"] != nil }.count == 3)

        // Every label in the plan area comes after every ellipse (drawn over them) and covers no other.
        let p = picture.projection
        let textElements = svg.elements.enumerated().filter { $0.element.name == "text" }
        #expect(textElements.count == svg.texts.count)
        let lastEllipse = try #require(svg.elements.lastIndex { $0.name == "ellipse" })
        var boxes: [(text: String, x0: Double, y0: Double, x1: Double, y1: Double)] = []
        for ((index, element), text) in zip(textElements, svg.texts) {
            let x = Double(element.attributes["x"] ?? "") ?? 0, y = Double(element.attributes["y"] ?? "") ?? 0
            guard y >= p.top, y <= p.top + p.pixelHeight else { continue }
            #expect(index > lastEllipse, "`\(text)` is drawn under an ellipse")
            let size = Double(element.attributes["font-size"] ?? "") ?? 0
            #expect(size > 0, "`\(text)` has no font size")
            let width = Double(text.count) * size * 0.6
            let x0 =
                switch element.attributes["text-anchor"] {
                case "middle": x - width / 2
                case "end": x - width
                default: x
                }
            boxes.append((text, x0, y - size, x0 + width, y + size * 0.25))
        }
        #expect(boxes.contains { $0.text == "West bay" } && boxes.contains { $0.text == "→ west" })
        #expect(boxes.count >= 3 + 12 + 6)
        for i in boxes.indices {
            for j in boxes.indices where j > i {
                let a = boxes[i], b = boxes[j]
                let overlap = a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1
                #expect(!overlap, "`\(a.text)` and `\(b.text)` overlap")
            }
        }
    }
}
