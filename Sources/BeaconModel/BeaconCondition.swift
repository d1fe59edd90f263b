import Foundation

/// A condition on beacon identities with wildcards, following the rule of Apple's
/// `CLMonitor.BeaconIdentityCondition`: a UUID alone matches every beacon with that UUID; a
/// UUID and a major match every minor under that major; all three match one beacon.
///
/// A minor without a major cannot be expressed, by construction.
public struct BeaconCondition: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The UUID every matching beacon must carry.
    public let uuid: UUID
    /// The major value to match, or nil for any.
    public let major: UInt16?
    /// The minor value to match, or nil for any (always nil when `major` is nil).
    public let minor: UInt16?

    /// Every beacon with this UUID.
    public init(uuid: UUID) {
        self.uuid = uuid
        self.major = nil
        self.minor = nil
    }

    /// Every beacon with this UUID and major.
    public init(uuid: UUID, major: UInt16) {
        self.uuid = uuid
        self.major = major
        self.minor = nil
    }

    /// Exactly one identity.
    public init(uuid: UUID, major: UInt16, minor: UInt16) {
        self.uuid = uuid
        self.major = major
        self.minor = minor
    }

    /// Exactly `identity`.
    public init(_ identity: BeaconIdentity) {
        self.init(uuid: identity.uuid, major: identity.major, minor: identity.minor)
    }

    /// Whether `identity` satisfies the condition.
    public func matches(_ identity: BeaconIdentity) -> Bool {
        guard identity.uuid == uuid else { return false }
        if let major, identity.major != major { return false }
        if let minor, identity.minor != minor { return false }
        return true
    }

    /// `UUID:major:minor` with `*` for each wildcard, for example `F7826DA6-…:2:*`.
    public var description: String {
        [uuid.uuidString, major.map(String.init) ?? "*", minor.map(String.init) ?? "*"]
            .joined(separator: ":")
    }

    private enum CodingKeys: String, CodingKey { case uuid, major, minor }

    /// Decodes `{"uuid": …, "major": …, "minor": …}` with `major` and `minor` optional.
    /// - Throws: `DecodingError` for a malformed uuid, a value outside 0…65535, or a `minor`
    ///   without a `major`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let uuid = try container.decode(UUID.self, forKey: .uuid)
        let major = try container.decodeIfPresent(UInt16.self, forKey: .major)
        let minor = try container.decodeIfPresent(UInt16.self, forKey: .minor)
        switch (major, minor) {
        case (nil, nil): self.init(uuid: uuid)
        case (let major?, nil): self.init(uuid: uuid, major: major)
        case (let major?, let minor?): self.init(uuid: uuid, major: major, minor: minor)
        case (nil, _?):
            throw DecodingError.dataCorruptedError(
                forKey: .minor, in: container,
                debugDescription: "a minor needs a major: give both, or leave out minor")
        }
    }

    /// Encodes the uuid and whichever of `major` and `minor` are set.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(uuid, forKey: .uuid)
        try container.encodeIfPresent(major, forKey: .major)
        try container.encodeIfPresent(minor, forKey: .minor)
    }
}
