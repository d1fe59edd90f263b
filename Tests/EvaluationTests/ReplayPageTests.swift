import Evaluation
import Foundation
import PositioningIO
import Testing

@testable import Rendering

@Suite("render: replay page")
struct ReplayPageTests {
    @Test("the page embeds every fix, truth row and event, in picture pixels and seconds from the start")
    func data() throws {
        let plan = try FloorPlan.load(path: PlanPictureTests.examples.appendingPathComponent("office-plan.json").path)
        let fixes = try TrackTable.read(path: PlanPictureTests.fixtures.appendingPathComponent("office-fixes.csv").path)
        let truth = try TrackTable.read(path: PlanPictureTests.examples.appendingPathComponent("office-truth.csv").path)
        let first = fixes.tracks["straight_01"]![0]
        let events = try RegionEvent.read(
            text: "timestamp,region,state,device\n\(first.timestamp + 0.5),west,satisfied,straight_01\n")
        let picture = try PlanPicture(plan: plan, fixes: fixes, truth: truth, events: events, device: "straight_01")
        let html = ReplayPage(picture: picture).html()
        let start = try #require(html.range(of: "const DATA = "))
        let end = try #require(html.range(of: ";\n", range: start.upperBound..<html.endIndex))
        let data = try #require(
            try JSONSerialization.jsonObject(with: Data(html[start.upperBound..<end.lowerBound].utf8)) as? [String: Any]
        )
        let devices = try #require(data["devices"] as? [[String: Any]])
        #expect(devices.count == 1 && devices[0]["name"] as? String == "straight_01")
        let rows = try #require(devices[0]["fixes"] as? [[Double]])
        #expect(rows.count == fixes.tracks["straight_01"]!.count)
        let (x, y) = picture.projection.pixel(first.x, first.y)
        let truthStart = truth.tracks["straight_01"]![0].timestamp
        #expect(abs(rows[0][0] - (first.timestamp - min(truthStart, first.timestamp))) < 0.01)
        #expect(abs(rows[0][1] - x) < 0.01 && abs(rows[0][2] - y) < 0.01)
        #expect(abs(rows[0][3] - first.accuracy! * picture.projection.scale) < 0.01)  // the accuracy circle
        let truths = try #require(data["truth"] as? [[String: Any]])
        #expect((truths.first?["points"] as? [[Double]])?.count == truth.tracks["straight_01"]!.count)
        let eventRows = try #require(data["events"] as? [[Any]])
        #expect(eventRows.count == 1 && eventRows[0][3] as? String == "west" && eventRows[0][4] as? Bool == true)
        // A label with markup cannot break out of the script element.
        let hostile = try RegionEvent.read(text: "timestamp,region,state\n\(first.timestamp),</script><b>,satisfied\n")
        let page = ReplayPage(
            picture: try PlanPicture(plan: plan, fixes: fixes, events: hostile, device: "straight_01")
        ).html()
        #expect(page.components(separatedBy: "</script>").count == 2)
    }
}
