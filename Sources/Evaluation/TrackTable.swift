import LinearAlgebra
import PositioningIO

/// The tracks of a fixes or truth CSV, per device, each sorted by time (stably: rows with the
/// same timestamp keep their file order).
///
/// Columns (found by name, any order): `timestamp`, `x`, `y` required; `floor`, `accuracy`,
/// `device`, the covariance `var_x`, `var_y`, `cov_xy` (as `locate --covariance` writes it;
/// `varX`, `varY`, `covXY` are read too), `zone` (a zone id, empty for none; `locate` writes it
/// when the plan has zones) and, in a truth file, `static` (0 or 1) optional. A file without a
/// `device` column has one track under the device name "" (empty).
public struct TrackTable: Sendable, Hashable {
    /// The tracks by device name ("" when the file has no device column).
    public var tracks: [String: [TrackPoint]]
    /// Whether the file has a `device` column.
    public var hasDevices: Bool
    /// Whether the file has a `floor` column.
    public var hasFloor: Bool
    /// Whether the file has an `accuracy` column.
    public var hasAccuracy: Bool
    /// Whether the file has a `zone` column (each point's ``TrackPoint/zone`` is then not nil).
    public var hasZone: Bool

    /// A table from tracks (each is sorted by time here).
    public init(
        tracks: [String: [TrackPoint]], hasDevices: Bool, hasFloor: Bool, hasAccuracy: Bool, hasZone: Bool = false
    ) {
        self.tracks = tracks.mapValues(TrackTable.sortedByTime)
        self.hasDevices = hasDevices
        self.hasFloor = hasFloor
        self.hasAccuracy = hasAccuracy
        self.hasZone = hasZone
    }

    /// The largest |x| or |y| a file may hold, metres (10,000 km).
    public static let coordinateLimit = 1e7

    /// Device names in a stable order (by Unicode scalars, as Python sorts strings).
    public var devices: [String] {
        tracks.keys.sorted { $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars) }
    }

    /// Number of points over all devices.
    public var count: Int { tracks.values.reduce(0) { $0 + $1.count } }

    /// The floor levels of all points, with how many points each has.
    public var pointsPerFloor: [Int: Int] {
        var counts: [Int: Int] = [:]
        for track in tracks.values { for point in track { if let f = point.floor { counts[f, default: 0] += 1 } } }
        return counts
    }

    static func sortedByTime(_ points: [TrackPoint]) -> [TrackPoint] {
        points.enumerated().sorted { a, b in
            a.element.timestamp != b.element.timestamp ? a.element.timestamp < b.element.timestamp : a.offset < b.offset
        }.map(\.element)
    }
}

extension TrackTable {
    /// Reads a fixes or truth CSV.
    /// - Throws: ``EvaluationError/input(_:)`` naming the file, line and column of the first
    ///   problem (a missing required column, a value that is not a finite number, an x or y
    ///   beyond ``coordinateLimit``, a `floor`
    ///   that is not an integer, an `accuracy` that is negative or beyond 1e7 m, a variance
    ///   beyond 1e14 m² or negative (named by its column), a covariance that is not one);
    ///   or when the file has a header but no rows.
    public static func read(path: String) throws(EvaluationError) -> TrackTable {
        do { return try read(csv: CSVReader(path: path)) } catch { throw .input(error) }
    }

    /// Reads CSV text held in memory; `label` stands for the path in messages.
    public static func read(text: String, label: String = "<input>") throws(EvaluationError) -> TrackTable {
        do { return try read(csv: CSVReader(text: text, label: label)) } catch { throw .input(error) }
    }

    private static func read(csv: CSVReader) throws(FileError) -> TrackTable {
        let t = try csv.requireColumn("timestamp"), x = try csv.requireColumn("x"), y = try csv.requireColumn("y")
        let floor = csv.column("floor"), accuracy = csv.column("accuracy"), device = csv.column("device")
        // The covariance as `locate --covariance` writes it (var_x, var_y, cov_xy), or camel-cased.
        let varX = csv.column("var_x") ?? csv.column("varX"), varY = csv.column("var_y") ?? csv.column("varY")
        let covXY = csv.column("cov_xy") ?? csv.column("covXY")
        let isStatic = csv.column("static"), zone = csv.column("zone")
        var tracks: [String: [TrackPoint]] = [:]
        // Plan coordinates beyond ±10,000 km are not a building's; bounding them keeps every
        // error, square and picture scale finite.
        func coordinate(_ row: [String], _ index: Int) throws(FileError) -> Double {
            let value = try csv.double(row, index)
            guard abs(value) <= TrackTable.coordinateLimit else {
                throw .invalidValue(
                    path: csv.path, line: csv.line, column: csv.header[index], value: String(try csv.field(row, index)),
                    expected: "a plan coordinate within ±1e7 metres")
            }
            return value
        }
        while let row = try csv.next() {
            var point = TrackPoint(
                timestamp: try csv.double(row, t), x: try coordinate(row, x), y: try coordinate(row, y))
            if let floor {
                let value = try csv.double(row, floor)
                guard value.rounded() == value, abs(value) <= Double(Int32.max) else {
                    throw .invalidValue(
                        path: csv.path, line: csv.line, column: csv.header[floor],
                        value: String(try csv.field(row, floor)), expected: "an integer floor level")
                }
                point.floor = Int(value)
            }
            if let accuracy {
                let value = try csv.double(row, accuracy)
                guard value >= 0, value <= TrackTable.coordinateLimit else {
                    throw .invalidValue(
                        path: csv.path, line: csv.line, column: csv.header[accuracy],
                        value: String(try csv.field(row, accuracy)),
                        expected: value < 0
                            ? "a radius in metres (it is negative)" : "a radius in metres, at most 1e7")
                }
                point.accuracy = value
            }
            if let varX, let varY, let covXY {
                let xx = try csv.double(row, varX), yy = try csv.double(row, varY), xy = try csv.double(row, covXY)
                // Each variance is blamed on its own column; 1e14 m² is a 1e7-m standard deviation.
                let limit = TrackTable.coordinateLimit * TrackTable.coordinateLimit
                for (value, column) in [(xx, varX), (yy, varY)] where !(value >= 0 && value <= limit) {
                    throw .invalidValue(
                        path: csv.path, line: csv.line, column: csv.header[column],
                        value: String(try csv.field(row, column)),
                        expected: "a variance in m², 0 to 1e14")
                }
                let covariance = PositionCovariance(xx: xx, xy: xy, yy: yy)
                guard covariance.isHorizontalCovariance else {
                    throw .invalidValue(
                        path: csv.path, line: csv.line, column: csv.header[covXY],
                        value: String(try csv.field(row, covXY)),
                        expected: "a covariance (varX, varY >= 0 and covXY^2 <= varX * varY)")
                }
                point.covariance = covariance
            }
            if let isStatic {
                let value = try csv.double(row, isStatic)
                guard value == 0 || value == 1 else {
                    throw .invalidValue(
                        path: csv.path, line: csv.line, column: csv.header[isStatic],
                        value: String(try csv.field(row, isStatic)),
                        expected: "0 or 1 (1: the receiver stays here until the next row)")
                }
                point.isStatic = value == 1
            }
            if let zone { point.zone = String(try csv.field(row, zone)) }
            var name = ""
            if let device { name = String(try csv.field(row, device)) }
            tracks[name, default: []].append(point)
        }
        guard !tracks.isEmpty else {
            throw .malformedRow(path: csv.path, line: 1, detail: "the file has a header but no data rows")
        }
        return TrackTable(
            tracks: tracks, hasDevices: device != nil, hasFloor: floor != nil,
            hasAccuracy: accuracy != nil, hasZone: zone != nil)
    }
}
