import Foundation
import Testing
@testable import PositioningIO

@Suite("Fix writers")
struct FixWriterTests {
    static let report = PositionReport(
        timestamp: 12.5, device: "phone, A", position: Point3D(x: 1.23456, y: -2, z: 1.2), level: 0,
        accuracy: 0.75, zone: "lobby", source: .tracked, beaconCount: 5)

    func written(_ format: FixFormat, device: Bool) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("fixes-\(UUID())")
        defer { try? FileManager.default.removeItem(at: url) }
        let writer = FixWriter(output: try OutputFile(path: url.path), format: format, includeDevice: device)
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
        let geo = try #require(try JSONSerialization.jsonObject(with: Data(try written(.geojson, device: false).utf8)) as? [String: Any])
        #expect(geo["type"] as? String == "FeatureCollection")
        let features = try #require(geo["features"] as? [[String: Any]])
        #expect(features.count == 2)
        let geometry = try #require(features[0]["geometry"] as? [String: Any])
        #expect(geometry["coordinates"] as? [Double] == [1.235, -2.0])
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
        #expect(throws: CSVError.self) { _ = try OutputFile(path: "/nonexistent-folder/fixes.csv") }
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
