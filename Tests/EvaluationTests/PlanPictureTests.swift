import Evaluation
import Foundation
import PositioningIO
import TestSupport
import Testing

@testable import Rendering

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Collects the elements of an SVG document; parsing fails on malformed XML.
final class SVGElements: NSObject, XMLParserDelegate {
    var elements: [(name: String, attributes: [String: String])] = []
    var texts: [String] = []
    private var currentText: String?

    static func parse(_ svg: String) -> SVGElements? {
        let collector = SVGElements()
        let parser = XMLParser(data: Data(svg.utf8))
        parser.delegate = collector
        return parser.parse() ? collector : nil
    }

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        elements.append((name, attributes))
        if name == "text" { currentText = "" }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { currentText? += string }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if name == "text", let text = currentText {
            texts.append(text)
            currentText = nil
        }
    }

    func count(_ name: String) -> Int { elements.filter { $0.name == name }.count }
}

@Suite("render: plan pictures")
struct PlanPictureTests {
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Docs/Examples")
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    @Test("the bundled sample: well-formed SVG, every beacon labelled, tracks, truth and ellipses drawn")
    func bundledSample() throws {
        let plan = try FloorPlan.load(path: Self.examples.appendingPathComponent("office-plan.json").path)
        let fixes = try TrackTable.read(path: Self.fixtures.appendingPathComponent("office-fixes.csv").path)
        let truth = try TrackTable.read(path: Self.examples.appendingPathComponent("office-truth.csv").path)
        let picture = try PlanPicture(plan: plan, fixes: fixes, truth: truth)
        let svg = try #require(SVGElements.parse(picture.svg()))
        for beacon in plan.beacons {
            #expect(svg.texts.contains(String(beacon.identity.minor)), "beacon \(beacon.identity)")
        }
        for zone in plan.floors[0].zones { #expect(svg.texts.contains(zone.name ?? zone.id)) }
        let solid = svg.elements.filter { $0.name == "polyline" && $0.attributes["stroke-dasharray"] == nil }
        let dashed = svg.elements.filter { $0.name == "polyline" && $0.attributes["stroke-dasharray"] != nil }
        #expect(Set(solid.compactMap { $0.attributes["stroke"] }).count == 3)  // three devices, three colours
        #expect(dashed.count >= 3)  // a true track per device
        // Ellipses every few fixes: 165 fixes in 3 tracks, the longest 84 → every 6th.
        #expect(picture.ellipseEvery == 6)
        #expect(svg.count("ellipse") >= 165 / 6)
        #expect(svg.texts.contains("5 m"))  // the scale bar (a fifth of the view, which includes the ellipses)
        #expect(svg.texts.contains("true track"))  // the legend
    }

    @Test("a simulated walk: the engine's track over the plan, the walk as truth")
    func simulatedWalk() throws {
        var configuration = WalkSimulator.Configuration()
        configuration.duration = 60
        let walk = WalkSimulator(seed: 7, configuration: configuration)
        let uuid = UUID(uuidString: "F7826DA6-4FA2-4E98-8024-BC5B71E0893E")!
        let beacons = walk.beacons.enumerated().map { index, p in
            Beacon(identity: BeaconIdentity(uuid: uuid, major: 1, minor: UInt16(100 + index)), position: p)
        }
        let plan = try FloorPlan(
            name: "simulated", defaults: PlanDefaults(receiverHeight: configuration.receiverHeight),
            floors: [
                Floor(
                    level: 0,
                    outline: Polygon([
                        Point2D(x: 0, y: 0), Point2D(x: 24, y: 0), Point2D(x: 24, y: 16), Point2D(x: 0, y: 16)
                    ]),
                    beacons: beacons)
            ])
        let samples = walk.samples.map {
            RSSISample(timestamp: $0.time, identity: beacons[$0.beacon].identity, rssi: $0.rssi)
        }
        let reports = try PositioningEngine.locate(samples, plan: plan)
        let fixes = TrackTable(
            tracks: [
                "": reports.map {
                    TrackPoint(
                        timestamp: $0.timestamp, x: $0.position.x, y: $0.position.y, floor: $0.level,
                        accuracy: $0.accuracy)
                }
            ], hasDevices: false, hasFloor: true, hasAccuracy: true)
        let truth = TrackTable(
            tracks: [
                "": stride(from: 0.0, through: 60, by: 0.5).map {
                    let p = walk.position(at: $0)
                    return TrackPoint(timestamp: $0, x: p.x, y: p.y)
                }
            ], hasDevices: false, hasFloor: false, hasAccuracy: false)
        let picture = try PlanPicture(plan: plan, fixes: fixes, truth: truth)
        let svg = try #require(SVGElements.parse(picture.svg()))
        for index in beacons.indices { #expect(svg.texts.contains(String(100 + index))) }
        #expect(svg.count("polyline") == 2)
        #expect(svg.count("ellipse") >= reports.count / picture.ellipseEvery)
        // Every drawn point lies inside the picture.
        let size = picture.size
        for element in svg.elements where element.name == "circle" {
            let x = Double(element.attributes["cx"] ?? "") ?? -1, y = Double(element.attributes["cy"] ?? "") ?? -1
            #expect(x >= 0 && x <= size.width && y >= 0 && y <= size.height)
        }
    }

    @Test("covariance columns give rotated ellipses; accuracy alone gives circles")
    func ellipses() throws {
        let plan = try FloorPlan(
            name: "",
            floors: [
                Floor(level: 0, outline: Polygon([Point2D(x: 0, y: 0), Point2D(x: 10, y: 0), Point2D(x: 10, y: 10)]))
            ])
        let fixes = try TrackTable.read(text: "timestamp,x,y,accuracy,varX,varY,covXY\n0,5,5,2,3,1,1\n")
        let picture = try PlanPicture(plan: plan, fixes: fixes)
        let e = try #require(picture.ellipsePixels(fixes.tracks[""]![0]))
        // Eigenvalues of [[3,1],[1,1]]: 2 ± √2; the major axis at ½·atan2(2, 2) = 22.5° from +x,
        // drawn clockwise on screen (y down).
        #expect(abs(e.rx / picture.projection.scale - (2 + 2.0.squareRoot()).squareRoot()) < 1e-9)
        #expect(abs(e.ry / picture.projection.scale - (2 - 2.0.squareRoot()).squareRoot()) < 1e-9)
        #expect(abs(e.degrees + 22.5) < 1e-9)
        let circle = try #require(picture.ellipsePixels(TrackPoint(timestamp: 0, x: 1, y: 1, accuracy: 2)))
        #expect(circle.rx == circle.ry && abs(circle.rx - 2 * picture.projection.scale) < 1e-9)
    }

    @Test("a plan's walls are drawn as lines, one per wall, inside the picture")
    func walls() throws {
        let floor = Floor(
            level: 0,
            outline: Polygon([Point2D(x: 0, y: 0), Point2D(x: 20, y: 0), Point2D(x: 20, y: 10), Point2D(x: 0, y: 10)]),
            walls: [
                Wall(from: Point2D(x: 10, y: 0), to: Point2D(x: 10, y: 4)),
                Wall(from: Point2D(x: 10, y: 6), to: Point2D(x: 10, y: 10), attenuation: 8)
            ])
        let picture = try PlanPicture(plan: FloorPlan(name: "walls", floors: [floor]))
        let svg = try #require(SVGElements.parse(picture.svg()))
        let lines = svg.elements.filter { $0.name == "line" && $0.attributes["data-wall"] != nil }
        #expect(lines.count == 2)
        for line in lines {
            for key in ["x1", "x2"] { #expect(Double(line.attributes[key] ?? "") ?? -1 > 0) }
        }
    }

    @Test("bad choices: a level or a device that does not exist")
    func badChoices() throws {
        let plan = try FloorPlan.load(path: Self.examples.appendingPathComponent("office-plan.json").path)
        let fixes = try TrackTable.read(path: Self.fixtures.appendingPathComponent("office-fixes.csv").path)
        #expect(throws: EvaluationError.unknownLevel(3, available: [0])) {
            try PlanPicture(plan: plan, fixes: fixes, level: 3)
        }
        #expect(throws: EvaluationError.self) { try PlanPicture(plan: plan, fixes: fixes, device: "nobody") }
        #expect(
            EvaluationError.unknownLevel(3, available: [0, 1]).description
                == "level 3 is not in the plan; its levels are 0, 1")
    }

    @Test("labels from the files are escaped: the SVG stays well-formed")
    func escaping() throws {
        let plan = try FloorPlan(
            name: "A & <B>",
            floors: [
                Floor(
                    level: 0,
                    zones: [
                        Zone(
                            id: "z", name: "\"quoted\" <zone>",
                            polygon: Polygon([Point2D(x: 0, y: 0), Point2D(x: 4, y: 0), Point2D(x: 0, y: 4)]))
                    ])
            ])
        let fixes = try TrackTable.read(text: "timestamp,device,x,y\n0,<d&>,1,1\n1,<d&>,2,1\n")
        let events = try RegionEvent.read(text: "timestamp,region,state,device\n0.5,<r>,satisfied,<d&>\n")
        let svg = try #require(SVGElements.parse(try PlanPicture(plan: plan, fixes: fixes, events: events).svg()))
        #expect(svg.texts.contains("\"quoted\" <zone>"))
        #expect(svg.texts.contains("→ <r>"))
    }

    @Test("regions: circles, zones and beacons drawn and labelled; events without fixes sit at their region")
    func regions() throws {
        let plan = try FloorPlan.load(path: Self.examples.appendingPathComponent("office-plan.json").path)
        let regions = try RegionsFile.load(
            path: Self.examples.appendingPathComponent("office-regions.json").path, plan: plan)
        let events = try RegionEvent.read(
            text: "timestamp,region,state\n1,table,satisfied\n2,desk-7,satisfied\n3,table,unsatisfied\n")
        let picture = try PlanPicture(plan: plan, events: events, regions: regions)
        #expect(picture.regions.map(\.id) == regions.regions.map(\.id))
        let svg = try #require(SVGElements.parse(picture.svg()))
        #expect(svg.texts.contains("table") && svg.texts.contains("desk-7"))
        #expect(!svg.texts.contains("site"))  // a wildcard over all 12 beacons gets no rings
        // The table circle (10, 9) r 2.5 m, dashed; the events without a track sit at its centre.
        let (cx, cy) = picture.projection.pixel(10, 9)
        let circles = svg.elements.filter { $0.name == "circle" && $0.attributes["stroke-dasharray"] != nil }
        let table = circles.first {
            abs((Double($0.attributes["r"] ?? "") ?? 0) - 2.5 * picture.projection.scale) < 0.01
        }
        #expect(table != nil)
        let marks = svg.elements.filter {
            $0.name == "circle" && $0.attributes["r"] == "5" && $0.attributes["stroke"] != nil
        }
        #expect(marks.count == 3)
        #expect(
            marks.filter {
                abs(Double($0.attributes["cx"]!)! - cx) < 0.01 && abs(Double($0.attributes["cy"]!)! - cy) < 0.01
            }.count == 2)
        #expect(svg.texts.contains("→ table") && svg.texts.contains("← table") && svg.texts.contains("→ desk-7"))
        // Regions of another floor are left out. (A regions file read against this one-floor
        // plan refuses a circle on level 1, which could never be entered; made directly here.)
        let upstairs = RegionsFile(regions: [
            RegionDefinition(
                id: "up", condition: .circle(CircleCondition(center: Point2D(x: 1, y: 1), radius: 1, level: 1)))
        ])
        #expect(try PlanPicture(plan: plan, regions: upstairs).regions.isEmpty)
    }

    @Test("one floor per picture: the floor with the most fixes by default, the others left out")
    func floors() throws {
        let square = Polygon([Point2D(x: 0, y: 0), Point2D(x: 10, y: 0), Point2D(x: 10, y: 10), Point2D(x: 0, y: 10)])
        let plan = try FloorPlan(
            name: "two floors", floors: [Floor(level: 0, outline: square), Floor(level: 1, outline: square)])
        let fixes = try TrackTable.read(text: "timestamp,x,y,floor\n0,1,1,0\n1,2,2,1\n2,3,3,1\n3,4,4,1\n")
        let busiest = try PlanPicture(plan: plan, fixes: fixes)
        #expect(busiest.floor.level == 1 && busiest.fixes[""]?.count == 3)
        let ground = try PlanPicture(plan: plan, fixes: fixes, level: 0)
        #expect(ground.fixes[""]?.count == 1)
        #expect(ground.title == "two floors — level 0")
        #expect(try PlanPicture(plan: plan).floor.level == 0)  // no fixes: the first floor
    }
}
