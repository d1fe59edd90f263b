import Foundation

/// Calibration samples read from the calibration CSV of FORMATS.md: `distance,rssi` and,
/// optionally, `uuid,major,minor` naming the beacon of each row.
///
/// RSSI values 0 and 127 (the platform's "no reading") are skipped and counted, as in the RSSI
/// samples file. Every other problem is a ``CSVError`` naming the line and column.
public struct CalibrationSamples: Sendable, Hashable {
    /// The samples, in file order.
    public var samples: [CalibrationSample]
    /// Rows skipped because their RSSI was 0 or 127.
    public var skippedNoReading: Int
    /// Rows skipped because their distance was below the requested minimum.
    public var skippedTooClose: Int

    /// Samples from their parts.
    public init(samples: [CalibrationSample], skippedNoReading: Int = 0, skippedTooClose: Int = 0) {
        self.samples = samples
        self.skippedNoReading = skippedNoReading
        self.skippedTooClose = skippedTooClose
    }

    /// Reads the calibration CSV at `path`.
    ///
    /// - Parameter minimumDistance: when given (metres), rows closer than this are skipped and
    ///   counted instead of fitted (useful for the near field, and for files with distance 0).
    ///   Without it, a distance that is not positive is an error.
    /// - Throws: ``CSVError`` naming the file, line and column of the first bad value.
    public static func read(path: String, minimumDistance: Double? = nil) throws(CSVError) -> CalibrationSamples {
        try read(CSVReader(path: path), minimumDistance: minimumDistance)
    }

    /// Reads calibration CSV `text` held in memory; `label` stands for the path in errors.
    public static func read(text: String, label: String = "<input>",
                            minimumDistance: Double? = nil) throws(CSVError) -> CalibrationSamples {
        try read(CSVReader(text: text, label: label), minimumDistance: minimumDistance)
    }

    static func read(_ reader: CSVReader, minimumDistance: Double?) throws(CSVError) -> CalibrationSamples {
        let distanceColumn = try reader.requireColumn("distance")
        let rssiColumn = try reader.requireColumn("rssi")
        let named = ["uuid", "major", "minor"].map { reader.column($0) }
        var identityColumns: (uuid: Int, major: Int, minor: Int)?
        if named.contains(where: { $0 != nil }) {
            // Naming beacons needs all three parts.
            identityColumns = (try reader.requireColumn("uuid"), try reader.requireColumn("major"),
                               try reader.requireColumn("minor"))
        }
        var result = CalibrationSamples(samples: [])
        var uuids: [Substring: UUID] = [:]
        while let row = try reader.next() {
            let distance = try reader.double(row, distanceColumn)
            let rssi = try reader.double(row, rssiColumn)
            if let minimumDistance, distance < minimumDistance {
                result.skippedTooClose += 1
                continue
            }
            guard distance > 0 else {
                throw .invalidValue(path: reader.path, line: reader.line, column: reader.header[distanceColumn],
                                    value: String(try reader.field(row, distanceColumn)),
                                    expected: "a positive distance in metres (use --min-distance to skip near-field rows)")
            }
            switch RSSIReading.rejection(of: rssi) {
            case .noReading?:
                result.skippedNoReading += 1
                continue
            case .some:
                throw .invalidValue(path: reader.path, line: reader.line, column: reader.header[rssiColumn],
                                    value: String(try reader.field(row, rssiColumn)),
                                    expected: "an RSSI in dBm from \(Int(RSSIReading.plausibleRange.lowerBound)) up to 0")
            case nil:
                break
            }
            var beacon: BeaconIdentity?
            if let columns = identityColumns {
                let text = try reader.field(row, columns.uuid)
                let uuid: UUID
                if let known = uuids[text] {
                    uuid = known
                } else if let parsed = UUID(uuidString: String(text)) {
                    uuid = parsed
                    uuids[text] = parsed
                } else {
                    throw .invalidValue(path: reader.path, line: reader.line, column: reader.header[columns.uuid],
                                        value: String(text), expected: "a UUID like F7826DA6-4FA2-4E98-8024-BC5B71E0893E")
                }
                let major = try reader.integer(row, columns.major, in: 0...65535)
                let minor = try reader.integer(row, columns.minor, in: 0...65535)
                beacon = BeaconIdentity(uuid: uuid, major: UInt16(major), minor: UInt16(minor))
            }
            result.samples.append(CalibrationSample(distance: distance, rssi: rssi, beacon: beacon))
        }
        return result
    }
}
