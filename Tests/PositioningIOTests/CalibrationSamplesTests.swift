import Foundation
import Testing

@testable import PositioningIO

@Suite("Calibration samples CSV")
struct CalibrationSamplesTests {
    let uuid = "F7826DA6-4FA2-4E98-8024-BC5B71E0893E"

    @Test("anonymous samples; columns by name in any order; 0 and 127 skipped and counted")
    func anonymous() throws {
        let text = "rssi,extra,distance\r\n-58,x,1.0\r\n-66.5,y,2.0\r\n0,z,3\r\n127,w,4\r\n\r\n-70,v,3.5\r\n"
        let read = try CalibrationSamples.read(text: text)
        #expect(
            read.samples == [
                CalibrationSample(distance: 1, rssi: -58), CalibrationSample(distance: 2, rssi: -66.5),
                CalibrationSample(distance: 3.5, rssi: -70)
            ])
        #expect(read.skippedNoReading == 2)
    }

    @Test("samples naming beacons")
    func named() throws {
        let text = "uuid,major,minor,distance,rssi\n\(uuid),1,7,1.5,-60\n\(uuid.lowercased()),1,8,2.5,-65\n"
        let read = try CalibrationSamples.read(text: text)
        #expect(read.samples.map(\.beacon?.minor) == [7, 8])
        #expect(read.samples[1].beacon?.uuid == UUID(uuidString: uuid))
    }

    @Test("a minimum distance skips near rows, including distance 0")
    func minimumDistance() throws {
        let read = try CalibrationSamples.read(text: "distance,rssi\n0,-40\n0.05,-45\n1,-60\n", minimumDistance: 0.1)
        #expect(read.samples.count == 1 && read.skippedTooClose == 2)
    }

    @Test(
        "bad values name the line and column",
        arguments: [
            ("distance,rssi\n1,-60\n0,-61\n", 3, "distance"),
            ("distance,rssi\n1,-60\n-2,-61\n", 3, "distance"),
            ("distance,rssi\n1,-60\n2,nan\n", 3, "rssi"),
            ("distance,rssi\n1,-60\ninf,-61\n", 3, "distance"),
            ("distance,rssi\n1,5\n", 2, "rssi"),
            ("distance,rssi\n1,-400\n", 2, "rssi"),
            ("distance,rssi\n1,abc\n", 2, "rssi"),
            ("uuid,major,minor,distance,rssi\nnot-a-uuid,1,1,1,-60\n", 2, "uuid"),
            ("uuid,major,minor,distance,rssi\nF7826DA6-4FA2-4E98-8024-BC5B71E0893E,70000,1,1,-60\n", 2, "major")
        ])
    func badValues(text: String, line: Int, column: String) {
        do {
            _ = try CalibrationSamples.read(text: text, label: "cal.csv")
            Issue.record("accepted \(text)")
        } catch {
            guard case .invalidValue(let path, let l, let c, _, _) = error else {
                Issue.record("wrong error \(error)")
                return
            }
            #expect(path == "cal.csv" && l == line && c == column)
            #expect(error.description.hasPrefix("cal.csv:\(line): column '\(column)'"))
        }
    }

    @Test("missing columns: rssi, or part of the beacon identity")
    func missingColumns() {
        #expect(throws: FileError.missingColumn(path: "<input>", column: "rssi", header: ["distance", "rsi"])) {
            try CalibrationSamples.read(text: "distance,rsi\n1,-60\n")
        }
        #expect(
            throws: FileError.missingColumn(
                path: "<input>", column: "major", header: ["uuid", "minor", "distance", "rssi"])
        ) {
            try CalibrationSamples.read(text: "uuid,minor,distance,rssi\n\(uuid),1,1,-60\n")
        }
    }

    @Test("an empty file is an error; a header alone gives no samples (the fit then says so)")
    func empty() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("empty.csv").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        #expect(throws: FileError.empty(path: path)) { try CalibrationSamples.read(path: path) }
        let headerOnly = try CalibrationSamples.read(text: "distance,rssi\n")
        #expect(headerOnly.samples.isEmpty)
        #expect(throws: CalibrationError.noSamples) { try PathLossCalibration().fit(headerOnly.samples) }
        #expect(throws: FileError.self) {
            try CalibrationSamples.read(path: directory.appendingPathComponent("none.csv").path)
        }
    }
}
