import Evaluation
import Foundation
import PositioningIO
import Testing

@testable import Rendering

/// One far outlier must not shrink the picture: the view follows the floor (and the fixes near
/// it); fixes beyond are crosses at the view's edge, counted in the legend.
@Suite("render: far outliers")
struct OutlierPictureTests {
    @Test("a fix at x = 2000 m in a 20-m office keeps the office's scale and is counted")
    func farOutlier() throws {
        let plan = try FloorPlan.load(path: PlanPictureTests.examples.appendingPathComponent("office-plan.json").path)
        var rows = ["timestamp,x,y,floor,accuracy"]
        for t in 0..<30 { rows.append("\(t),\(3 + Double(t) * 0.3),5,0,1.5") }
        let near = try TrackTable.read(text: rows.joined(separator: "\n") + "\n")
        rows.append("30,2000,5,0,1.5")
        let far = try TrackTable.read(text: rows.joined(separator: "\n") + "\n")
        let clean = try PlanPicture(plan: plan, fixes: near)
        let picture = try PlanPicture(plan: plan, fixes: far)
        #expect(clean.fixesOutsideView == 0)
        #expect(picture.fixesOutsideView == 1)
        // The same scale as without the outlier (it was about a hundredth of it before).
        #expect(abs(picture.projection.scale / clean.projection.scale - 1) < 1e-9)
        let svg = try #require(SVGElements.parse(picture.svg()))
        #expect(svg.texts.contains("1 fix outside the view, drawn at its edge"))
        let crosses = svg.elements.filter { $0.attributes["data-outside"] == "1" }
        #expect(crosses.count == 1)
        // The cross lies inside the plan area, at its right edge.
        let p = picture.projection
        let x = try #require(crosses.first?.attributes["x2"].flatMap(Double.init))
        #expect(x <= p.left + p.pixelWidth && x >= p.left + p.pixelWidth - 10)
    }
}
