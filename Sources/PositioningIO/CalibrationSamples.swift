import Foundation

/// Calibration samples read from the calibration CSV of FORMATS.md: `distance,rssi` and,
/// optionally, `uuid,major,minor` naming the beacon of each row.
///
/// RSSI values 0 and 127 (the platform's "no reading") are skipped and counted, as in the RSSI
/// samples file. Every other problem is a ``FileError`` naming the line and column.
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
    /// - Parameters:
    ///   - path: the file to read.
    ///   - minimumDistance: when given (metres), rows closer than this are skipped and
    ///     counted instead of fitted (useful for the near field, and for files with distance 0).
    ///     Without it, a distance that is not positive is an error.
    /// - Throws: ``FileError`` naming the file, line and column of the first bad value.
    public static func read(path: String, minimumDistance: Double? = nil) throws(FileError) -> CalibrationSamples {
        try read(CSVReader(path: path), minimumDistance: minimumDistance)
    }

    /// Reads calibration CSV `text` held in memory; `label` stands for the path in errors.
    public static func read(
        text: String, label: String = "<input>",
        minimumDistance: Double? = nil
    ) throws(FileError) -> CalibrationSamples {
        try read(CSVReader(text: text, label: label), minimumDistance: minimumDistance)
    }

    static func read(_ reader: CSVReader, minimumDistance: Double?) throws(FileError) -> CalibrationSamples {
        let distanceColumn = try reader.requireColumn("distance")
        let rssiColumn = try reader.requireColumn("rssi")
        let named = ["uuid", "major", "minor"].map { reader.column($0) }
        var identityColumns: CSVReader.IdentityColumns?
        if named.contains(where: { $0 != nil }) {
            // Naming beacons needs all three parts.
            identityColumns = .init(
                uuid: try reader.requireColumn("uuid"), major: try reader.requireColumn("major"),
                minor: try reader.requireColumn("minor"))
        }
        var result = CalibrationSamples(samples: [])
        var uuids: [String: UUID] = [:]
        while let row = try reader.next() {
            let distance = try reader.double(row, distanceColumn)
            let rssi = try reader.double(row, rssiColumn)
            if let minimumDistance, distance < minimumDistance {
                result.skippedTooClose += 1
                continue
            }
            guard distance > 0 else {
                throw .invalidValue(
                    path: reader.path, line: reader.line, column: reader.header[distanceColumn],
                    value: String(try reader.field(row, distanceColumn)),
                    expected: "a positive distance in metres (use --min-distance to skip near-field rows)")
            }
            switch RSSIReading.rejection(of: rssi) {
            case .noReading?:
                result.skippedNoReading += 1
                continue
            case .some:
                throw .invalidValue(
                    path: reader.path, line: reader.line, column: reader.header[rssiColumn],
                    value: String(try reader.field(row, rssiColumn)),
                    expected: "an RSSI in dBm from \(Int(RSSIReading.plausibleRange.lowerBound)) up to 0")
            case nil:
                break
            }
            var beacon: BeaconIdentity?
            if let columns = identityColumns {
                beacon = try reader.beaconIdentity(row, columns, cache: &uuids)
            }
            result.samples.append(CalibrationSample(distance: distance, rssi: rssi, beacon: beacon))
        }
        return result
    }
}
