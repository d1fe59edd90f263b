import Foundation
import Testing

@testable import PositioningIO

@Suite("RSSI samples CSV")
struct RSSISampleReaderTests {
    static let uuid = "F7826DA6-4FA2-4E98-8024-BC5B71E0893E"

    @Test("reads samples in any column order, with devices, skipping 0 and 127")
    func readsSamples() throws {
        let text = """
            rssi,minor,major,uuid,timestamp,device
            -67,7,1,\(Self.uuid.lowercased()),0.000,phoneA
            0,7,1,\(Self.uuid),0.100,phoneA
            127,8,1,\(Self.uuid),0.200,phoneB
            -74.5,8,1,\(Self.uuid),0.105,phoneB
            """
        let reader = try RSSISampleReader(csv: CSVReader(text: text))
        #expect(reader.hasDevices)
        var samples: [RSSISample] = []
        while let sample = try reader.next() { samples.append(sample) }
        #expect(samples.count == 2)
        #expect(
            samples[0]
                == RSSISample(
                    timestamp: 0, identity: BeaconIdentity("\(Self.uuid):1:7")!,
                    rssi: -67, device: "phoneA"))
        #expect(samples[1].rssi == -74.5)
        #expect(samples[1].device == "phoneB")
        #expect(reader.counts.noReading == 2)
    }

    @Test(
        "a malformed row names line and column; with skipBadRows it is counted instead",
        arguments: [
            ("abc", "rssi", "a finite number"),
            ("nan", "rssi", "a finite number")
        ])
    func malformedRows(value: String, column: String, expected: String) throws {
        let text =
            "timestamp,uuid,major,minor,rssi\n0,\(Self.uuid),1,1,-60\n1,\(Self.uuid),1,1,\(value)\n2,\(Self.uuid),1,1,-61\n"
        let strict = try RSSISampleReader(csv: CSVReader(text: text))
        _ = try strict.next()
        #expect(
            throws: FileError.invalidValue(
                path: "<input>", line: 3, column: column, value: value,
                expected: expected)
        ) {
            _ = try strict.next()
        }
        let lenient = try RSSISampleReader(csv: CSVReader(text: text), skipBadRows: true)
        var count = 0
        while try lenient.next() != nil { count += 1 }
        #expect(count == 2)
        #expect(lenient.counts.badRows == 1)
        #expect(lenient.counts.firstBadRow?.line == 3)
    }

    @Test("out-of-range major, bad uuid and missing columns are errors")
    func badValues() throws {
        let major = try RSSISampleReader(
            csv: CSVReader(text: "timestamp,uuid,major,minor,rssi\n0,\(Self.uuid),70000,1,-60\n"))
        #expect(
            throws: FileError.invalidValue(
                path: "<input>", line: 2, column: "major", value: "70000",
                expected: "an integer in 0...65535")
        ) { _ = try major.next() }
        let uuid = try RSSISampleReader(csv: CSVReader(text: "timestamp,uuid,major,minor,rssi\n0,not-a-uuid,1,1,-60\n"))
        #expect(throws: FileError.self) { _ = try uuid.next() }
        #expect(
            throws: FileError.missingColumn(
                path: "<input>", column: "rssi",
                header: ["timestamp", "uuid", "major", "minor"])
        ) {
            _ = try RSSISampleReader(csv: CSVReader(text: "timestamp,uuid,major,minor\n"))
        }
    }
}
