import Foundation

/// The identity an iBeacon advertises: a proximity UUID, a major and a minor value.
///
/// Two identities are equal when all three parts are equal; the UUID compares
/// case-insensitively because it is stored as a `UUID`. The text form is `UUID:major:minor`,
/// for example `F7826DA6-4FA2-4E98-8024-BC5B71E0893E:1:7`.
public struct BeaconIdentity: Sendable, Hashable, Codable, Comparable, CustomStringConvertible,
    LosslessStringConvertible
{
    /// The proximity UUID shared by a deployment's beacons.
    public var uuid: UUID
    /// The major value (0…65535), typically a building or floor.
    public var major: UInt16
    /// The minor value (0…65535), typically one beacon.
    public var minor: UInt16

    /// An identity from its three parts.
    public init(uuid: UUID, major: UInt16, minor: UInt16) {
        self.uuid = uuid
        self.major = major
        self.minor = minor
    }

    /// Parses `UUID:major:minor`; returns nil when any part is malformed or out of range.
    public init?(_ description: String) {
        let parts = description.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3,
            let uuid = UUID(uuidString: String(parts[0])),
            let major = UInt16(parts[1]),
            let minor = UInt16(parts[2])
        else { return nil }
        self.init(uuid: uuid, major: major, minor: minor)
    }

    /// `UUID:major:minor` with the UUID in upper case.
    public var description: String { "\(uuid.uuidString):\(major):\(minor)" }

    /// Orders by UUID text, then major, then minor (a stable order for output).
    public static func < (lhs: BeaconIdentity, rhs: BeaconIdentity) -> Bool {
        (lhs.uuid.uuidString, lhs.major, lhs.minor) < (rhs.uuid.uuidString, rhs.major, rhs.minor)
    }
}
