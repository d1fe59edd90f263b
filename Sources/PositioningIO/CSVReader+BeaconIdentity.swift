import Foundation

extension CSVReader {
    /// The columns that name a beacon: uuid, major and minor.
    public struct IdentityColumns: Sendable, Hashable {
        public var uuid: Int, major: Int, minor: Int

        public init(uuid: Int, major: Int, minor: Int) {
            self.uuid = uuid
            self.major = major
            self.minor = minor
        }
    }

    /// Parses the beacon identity of `row` (a UUID and major and minor in 0…65535). Parsed UUIDs
    /// are kept in `cache` by their text (at most 1024), since a file names few beacons many times.
    /// - Throws: ``FileError/invalidValue(path:line:column:value:expected:)`` naming the column.
    public func beaconIdentity(
        _ row: [String], _ columns: IdentityColumns,
        cache: inout [String: UUID]
    ) throws(FileError) -> BeaconIdentity {
        let text = String(try field(row, columns.uuid))
        let uuid: UUID
        if let known = cache[text] {
            uuid = known
        } else if let parsed = UUID(uuidString: text) {
            uuid = parsed
            if cache.count < 1024 { cache[text] = parsed }
        } else {
            throw .invalidValue(
                path: path, line: line, column: header[columns.uuid], value: text,
                expected: "a UUID like F7826DA6-4FA2-4E98-8024-BC5B71E0893E")
        }
        let major = try integer(row, columns.major, in: 0...65535)
        let minor = try integer(row, columns.minor, in: 0...65535)
        return BeaconIdentity(uuid: uuid, major: UInt16(major), minor: UInt16(minor))
    }
}
