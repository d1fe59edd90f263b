import Foundation
import Testing

@testable import PositioningIO

@Suite("Fix writers")
struct ReportWriterTests {
    static let report = PositionReport(
        timestamp: 12.5, device: "phone, A", position: Point3D(x: 1.23456, y: -2, z: 1.2), level: 0,
        accuracy: 0.75, zone: "lobby", source: .tracked, beaconCount: 5)

    static let georeferenced = try! FloorPlan(
        name: "geo",
        floors: [Floor(level: 0, outline: Polygon([Point2D(x: 0, y: 0), Point2D(x: 0, y: 10), Point2D(x: 10, y: 10)]))],
        georeference: Georeference(latitude: 45, longitude: 7, bearing: 0))

    func written(_ format: ReportFormat, device: Bool) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("fixes-\(UUID())")
        defer { try? FileManager.default.removeItem(at: url) }
        let writer = try ReportWriter(
            output: try OutputFile(path: url.path), format: format, includeDevice: device,
            plan: Self.georeferenced)
        writer.write(Self.report)
        writer.write(Self.report)
        try writer.finish()
        return try String(contentsOf: url, encoding: .utf8)
    }

    @Test("CSV has the contract's leading columns, then device, z, zone, source, beacons")
    func csv() throws {
        let lines = try written(.csv, device: true).split(separator: "\n")
        #expect(lines[0] == "timestamp,x,y,floor,accuracy,device,z,zone,source,beacons")
        #expect(lines[1] == "12.500,1.235,-2.000,0,0.750,\"phone, A\",1.200,lobby,tracked,5")
        #expect(lines.count == 3)
        let plain = try written(.csv, device: false).split(separator: "\n")
        #expect(plain[0] == "timestamp,x,y,floor,accuracy,z,zone,source,beacons")
    }

    @Test("JSON lines and GeoJSON parse as JSON with the same fields")
    func json() throws {
        for line in try written(.jsonl, device: true).split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["device"] as? String == "phone, A")
            #expect(object["floor"] as? Int == 0)
            #expect(object["zone"] as? String == "lobby")
        }
        let geo = try #require(
            try JSONSerialization.jsonObject(with: Data(try written(.geojson, device: false).utf8)) as? [String: Any])
        #expect(geo["type"] as? String == "FeatureCollection")
        let features = try #require(geo["features"] as? [[String: Any]])
        #expect(features.count == 4)  // the outline, two fixes, one track
        let kinds = features.map { ($0["geometry"] as? [String: Any])?["type"] as? String }
        #expect(kinds == ["Polygon", "Point", "Point", "LineString"])
        // (1.23456, −2) m from an origin at 45° N 7° E, y north: at 45°, 1° of longitude is
        // 78 846.8 m and 1° of latitude 111 132.9 m (WGS 84).
        let coordinates = try #require((features[1]["geometry"] as? [String: Any])?["coordinates"] as? [Double])
        #expect(abs(coordinates[0] - (7 + 1.23456 / 78_846.8)) < 1e-7)
        #expect(abs(coordinates[1] - (45 - 2 / 111_132.9)) < 1e-7)
        // The outline's ring is closed and turned counter-clockwise (it was clockwise in the plan).
        let ring = try #require(((features[0]["geometry"] as? [String: Any])?["coordinates"] as? [[[Double]]])?.first)
        #expect(ring.count == 4 && ring.first == ring.last)
        #expect(ring.contains([7, 45]))  // the plan origin is the georeference origin
        var twiceArea = 0.0
        for i in 0..<3 { twiceArea += ring[i][0] * ring[i + 1][1] - ring[i + 1][0] * ring[i][1] }
        #expect(twiceArea > 0)
        #expect(throws: GeoJSONError.self) {
            _ = try ReportWriter(
                output: try OutputFile(path: nil), format: .geojson, includeDevice: false,
                plan: try FloorPlan(name: "plain", floors: [Floor(level: 0)]))
        }
    }

    @Test(
        "reports encoded by the writer's encoder (other threads) give the bytes the writer writes",
        arguments: [ReportFormat.csv, .jsonl])
    func encoded(format: ReportFormat) throws {
        var other = Self.report
        other.device = nil
        other.zone = nil
        other.deviceOffset = -3.25
        other.covariance = PositionCovariance(xx: 0.5, xy: -0.125, yy: 0.25)
        other.motion = ModeProbabilities(standing: 0.2, strolling: 0.3, walking: 0.5)
        let reports = [Self.report, other, Self.report]
        for device in [false, true] {
            var texts: [String] = []
            for encoded in [false, true] {
                let url = FileManager.default.temporaryDirectory.appendingPathComponent("fixes-\(UUID())")
                defer { try? FileManager.default.removeItem(at: url) }
                let writer = try ReportWriter(
                    output: try OutputFile(path: url.path), format: format, includeDevice: device,
                    includeDeviceOffset: true, includeCovariance: true, includeMotion: true)
                if encoded {
                    let encoder = try #require(writer.encoder)
                    // Two chunks, as the engine hands them out: one report, then two.
                    for chunk in [reports[..<1], reports[1...]] {
                        var bytes: [UInt8] = []
                        for report in chunk { encoder(report, &bytes) }
                        writer.write(encoded: bytes, reports: chunk.count)
                    }
                } else {
                    reports.forEach(writer.write)
                }
                #expect(writer.count == 3)
                try writer.finish()
                texts.append(try String(contentsOf: url, encoding: .utf8))
            }
            #expect(texts[0] == texts[1], "\(format), device \(device)")
            #expect(texts[0].contains("-3.25") && texts[0].contains("0.500"))
        }
        let geo = try ReportWriter(
            output: try OutputFile(path: nil), format: .geojson, includeDevice: false, plan: Self.georeferenced)
        #expect(geo.encoder == nil)
    }

    @Test("committing over an existing file replaces it")
    func replacesExisting() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("fixes-\(UUID()).csv")
        defer { try? FileManager.default.removeItem(at: url) }
        for text in ["first\n", "second\n"] {
            let output = try OutputFile(path: url.path)
            output.write(text)
            try output.commit()
        }
        #expect(try String(contentsOf: url, encoding: .utf8) == "second\n")
        #expect(throws: FileError.self) { _ = try OutputFile(path: "/nonexistent-folder/fixes.csv") }
    }

    @Test("an abandoned file output leaves no file behind")
    func abandoned() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("fixes-\(UUID()).csv")
        do {
            let output = try OutputFile(path: url.path)
            output.write("partial")
            output.abandon()
        }
        #expect(!FileManager.default.fileExists(atPath: url.path))
        let folder = try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)
        #expect(!folder.contains { $0.contains(url.lastPathComponent) })
    }
}
