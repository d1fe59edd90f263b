import Foundation

/// Streams the RSSI samples CSV of `FORMATS.md` (`timestamp,uuid,major,minor,rssi` and the
/// optional `device` and `activity` columns, in any order), one sample at a time.
///
/// `activity` is `stationary` or `walking` (`ActivityHint`); `unknown` or an empty cell is no
/// hint; any other text is an error naming the line (or a skipped row with `skipBadRows`).
///
/// Rows with `rssi` 0 or 127 (the platforms' "no reading") are skipped and counted. A malformed
/// row is an error naming its line and column, unless `skipBadRows` is set, in which case it is
/// skipped and counted.
public final class RSSISampleReader {
    /// What was passed over while reading.
    public struct Counts: Sendable, Hashable {
        /// Samples returned.
        public var read = 0
        /// Rows with rssi 0 or 127.
        public var noReading = 0
        /// Malformed rows skipped (only with `skipBadRows`).
        public var badRows = 0
        /// The first bad row's error, for the report on standard error.
        public var firstBadRow: FileError?
    }

    private var stream: SampleStream
    /// What has been read and skipped so far.
    public var counts: Counts { stream.counts }

    /// Opens `path` and checks that the required columns are present.
    public convenience init(path: String, skipBadRows: Bool = false) throws(FileError) {
        try self.init(csv: CSVReader(path: path), skipBadRows: skipBadRows)
    }

    /// Reads samples from an already opened CSV (which this reader then consumes: do not read
    /// from `csv` as well).
    public init(csv: CSVReader, skipBadRows: Bool = false) throws(FileError) {
        stream = SampleStream(
            rows: csv.rows, skipBadRows: skipBadRows,
            columns: .init(
                timestamp: try csv.requireColumn("timestamp"),
                identity: .init(
                    uuid: try csv.requireColumn("uuid"), major: try csv.requireColumn("major"),
                    minor: try csv.requireColumn("minor")),
                rssi: try csv.requireColumn("rssi"), device: csv.column("device"),
                activity: csv.column("activity")))
    }

    /// Whether the file has a `device` column.
    public var hasDevices: Bool { stream.columns.device != nil }

    /// Whether the file has an `activity` column (the phone's activity hints).
    public var hasActivity: Bool { stream.columns.activity != nil }

    /// The next sample, or nil at the end of the file.
    public func next() throws(FileError) -> RSSISample? {
        try stream.next()
    }

    /// The ``DeviceNameHash`` of the last sample's device, from the bytes it was read from (nil
    /// for a file without devices): for ``PositioningEngine/push(_:deviceHash:)``.
    package var deviceHash: UInt64? { stream.deviceHash }
}

/// The state of an ``RSSISampleReader`` in one value, so that a whole sample is parsed from
/// the row's bytes in one access.
struct SampleStream {
    struct Columns {
        var timestamp: Int
        var identity: CSVReader.IdentityColumns
        var rssi: Int
        var device: Int?
        var activity: Int?
    }

    var rows: CSVRows
    let skipBadRows: Bool
    /// Set once an open quote has taken in the rest of the file.
    private var exhausted = false
    let columns: Columns
    private var identities = IdentityTable()
    private var devices = DeviceNames()
    /// The device name hash of the last sample parsed (nil without a device column).
    private(set) var deviceHash: UInt64?
    private(set) var counts = RSSISampleReader.Counts()

    init(rows: CSVRows, skipBadRows: Bool, columns: Columns) {
        self.rows = rows
        self.skipBadRows = skipBadRows
        self.columns = columns
    }

    mutating func next() throws(FileError) -> RSSISample? {
        while try nextRecord() {
            do {
                if let sample = try parseRecord() {
                    counts.read += 1
                    return sample
                }
                counts.noReading += 1
            } catch {
                guard skipBadRows else { throw error }
                counts.badRows += 1
                if counts.firstBadRow == nil { counts.firstBadRow = error }
            }
        }
        return nil
    }

    /// Moves to the next row. With `skipBadRows`, a row longer than 1 MiB is counted as one bad
    /// row and passed over to its line end (in a regular file), and a quoted field left open at
    /// the end of the file (it took in the rest of the file) is counted as one bad row and ends
    /// the input.
    private mutating func nextRecord() throws(FileError) -> Bool {
        guard !exhausted else { return false }
        while true {
            do {
                return try rows.nextRecord()
            } catch {
                guard skipBadRows, case .malformedRow = error else { throw error }
                counts.badRows += 1
                if counts.firstBadRow == nil { counts.firstBadRow = error }
                if try rows.skipOverlongRow() { continue }
                exhausted = true
                return false
            }
        }
    }

    /// The current row as a sample, straight from its bytes (no strings are built for rows
    /// whose beacon and device were seen before).
    private mutating func parseRecord() throws(FileError) -> RSSISample? {
        let rssi = try rows.recordDouble(columns.rssi)
        if case .noReading? = RSSIReading.rejection(of: rssi) { return nil }
        let timestamp = try rows.recordTimestamp(columns.timestamp)
        let uuidRange = try rows.trimmedRange(columns.identity.uuid)
        guard let uuid = identities.uuid(rows.buffer, uuidRange) else {
            throw .invalidValue(
                path: rows.path, line: rows.line, column: rows.header[columns.identity.uuid],
                value: rows.text(uuidRange), expected: "a UUID like F7826DA6-4FA2-4E98-8024-BC5B71E0893E")
        }
        let major = try rows.recordInteger(columns.identity.major, in: 0...65535)
        let minor = try rows.recordInteger(columns.identity.minor, in: 0...65535)
        let identity = BeaconIdentity(uuid: uuid, major: UInt16(major), minor: UInt16(minor))
        var device: String?
        if let index = columns.device {
            let range = try rows.trimmedRange(index)
            // A control character (NUL, escape) would go raw into every output and message
            // naming the device. Tab and line breaks (in quotes) are text that outputs quote.
            if rows.buffer[range].contains(where: Self.isControl) {
                throw .invalidValue(
                    path: rows.path, line: rows.line, column: rows.header[index], value: rows.text(range),
                    expected: "a device name without control characters such as NUL or escape")
            }
            guard let (name, hash) = devices.name(rows.buffer, range) else {
                // Decoding would replace the bad bytes, and two names differing only there
                // would become one device.
                throw .invalidValue(
                    path: rows.path, line: rows.line, column: rows.header[index], value: rows.text(range),
                    expected: "valid UTF-8 text (names differing only in invalid bytes would be merged)")
            }
            device = name
            deviceHash = hash
        }
        var activity: ActivityHint?
        if let index = columns.activity {
            let range = try rows.trimmedRange(index)
            if let hint = Self.activity(rows.buffer[range]) {
                activity = hint
            } else if !(range.isEmpty || rows.buffer[range].elementsEqual("unknown".utf8)) {
                throw .invalidValue(
                    path: rows.path, line: rows.line, column: rows.header[index], value: rows.text(range),
                    expected: "stationary, walking, unknown or empty")
            }
        }
        return RSSISample(timestamp: timestamp, identity: identity, rssi: rssi, device: device, activity: activity)
    }

    /// A control byte other than tab, line feed and carriage return.
    private static func isControl(_ byte: UInt8) -> Bool {
        (byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D) || byte == 0x7F
    }

    /// The hint a cell spells exactly (`stationary`, `walking`), or nil.
    private static func activity(_ bytes: ArraySlice<UInt8>) -> ActivityHint? {
        if bytes.elementsEqual("stationary".utf8) { return .stationary }
        if bytes.elementsEqual("walking".utf8) { return .walking }
        return nil
    }
}
