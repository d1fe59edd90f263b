import Foundation
import Testing

@testable import BeaconModel

@Suite("Georeference")
struct GeoreferenceTests {
    static func plan(_ georeference: String) throws -> FloorPlan {
        try FloorPlan(
            jsonData: Data(
                """
                {"floors": [{"level": 0}], "georeference": \(georeference)}
                """.utf8))
    }

    @Test("a known point: 1 km east and north of 45° N 7° E")
    func knownPoint() {
        // WGS 84 at 45°: 1° of latitude is 111 132.95 m, 1° of longitude 78 846.8 m.
        let g = Georeference(latitude: 45, longitude: 7, bearing: 0)
        let east = g.coordinate(x: 1000, y: 0), north = g.coordinate(x: 0, y: 1000)
        #expect(abs(east.longitude - (7 + 1000 / 78_846.8)) < 2e-7 && east.latitude == 45)
        #expect(abs(north.latitude - (45 + 1000 / 111_132.95)) < 2e-7 && north.longitude == 7)
        // Bearing 90°: the plan's y axis points east, its x axis south.
        let turned = Georeference(latitude: 45, longitude: 7, bearing: 90)
        let y = turned.coordinate(x: 0, y: 1000), x = turned.coordinate(x: 1000, y: 0)
        #expect(abs(y.longitude - east.longitude) < 1e-12 && abs(y.latitude - 45) < 1e-12)
        #expect(abs(x.latitude - (45 - 1000 / 111_132.95)) < 2e-7 && abs(x.longitude - 7) < 1e-12)
    }

    @Test("near the antimeridian longitudes wrap into −180 ..< 180 and still round-trip")
    func antimeridian() {
        let g = Georeference(latitude: -16.5, longitude: 179.9995, bearing: 0)
        for x in [-200.0, 0, 50, 200] {
            let c = g.coordinate(x: x, y: 10)
            #expect((-180..<180).contains(c.longitude), "x = \(x): \(c.longitude)")
            let back = g.planPoint(longitude: c.longitude, latitude: c.latitude)
            #expect(abs(back.x - x) < 1e-6 && abs(back.y - 10) < 1e-6)
        }
        #expect(g.coordinate(x: 200, y: 0).longitude < -179.99)
    }

    @Test("plan → WGS 84 → plan gives the point back", arguments: [0.0, 30, -135, 359])
    func roundTrip(bearing: Double) {
        let g = Georeference(latitude: -33.86, longitude: 151.21, bearing: bearing)
        for (x, y) in [(0.0, 0.0), (12.5, -3), (-200, 150)] {
            let c = g.coordinate(x: x, y: y)
            let back = g.planPoint(longitude: c.longitude, latitude: c.latitude)
            #expect(abs(back.x - x) < 1e-6 && abs(back.y - y) < 1e-6)
            // A rotation: distances from the origin are kept (to the tangent plane's order).
            let r = g.planPoint(longitude: c.longitude, latitude: c.latitude)
            #expect(abs((r.x * r.x + r.y * r.y).squareRoot() - (x * x + y * y).squareRoot()) < 1e-6)
        }
    }

    @Test("read, validated with the JSON path, written and read back")
    func json() throws {
        let plan = try Self.plan(#"{"latitude": 52.5163, "longitude": 13.3777, "bearing": 12.5}"#)
        #expect(plan.georeference == Georeference(latitude: 52.5163, longitude: 13.3777, bearing: 12.5))
        let again = try FloorPlan(jsonData: plan.jsonData())
        #expect(again == plan)
        #expect(try Self.plan(#"{"latitude": 1, "longitude": 2}"#).georeference?.bearing == 0)
        #expect(try FloorPlan(jsonData: Data(#"{"floors": [{"level": 0}]}"#.utf8)).georeference == nil)
        let cases: [(String, String)] = [
            (#"{"latitude": 95, "longitude": 2}"#, "georeference.latitude: 95 is out of range -89.9...89.9 degrees"),
            (#"{"latitude": 1, "longitude": -181}"#, "georeference.longitude: -181 is out of range -180...180 degrees"),
            (#"{"latitude": 1, "longitude": 2, "bearing": "north"}"#, "georeference.bearing: expected a number"),
            (#"{"longitude": 2}"#, "georeference.latitude: required key is missing"),
            (#"[1, 2]"#, "georeference: expected an object")
        ]
        for (text, message) in cases {
            #expect(throws: FloorPlanError.self) { try Self.plan(text) }
            do { _ = try Self.plan(text) } catch { #expect("\(error)".hasPrefix(message), "\(error)") }
        }
        #expect(throws: FloorPlanError.self) {
            try FloorPlan(name: "", floors: [Floor(level: 0)], georeference: Georeference(latitude: .nan, longitude: 0))
        }
    }
}
