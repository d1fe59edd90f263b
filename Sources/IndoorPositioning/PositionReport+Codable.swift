import LinearAlgebra

/// `Codable` with the stored properties under their own names, plus the derived `accuracy`
/// (metres) and `ellipse` for readers of the JSON that do not do the algebra. Decoding uses
/// `covariance` when present, otherwise an isotropic covariance from `accuracy`; the derived
/// fields are never trusted over the covariance. Decoding refuses what no engine writes: a
/// covariance that is not one or has a variance beyond 1e14 m², an accuracy that is negative or
/// beyond ``accuracyLimit``, a non-finite time or position, a negative beacon count.
extension PositionReport: Codable {
    private enum CodingKeys: String, CodingKey {
        case timestamp, device, position, level, accuracy, covariance, ellipse, velocity, speed, zone, zoneProbability
        case source
        case beaconCount, deviceOffset, motion
    }

    /// The largest accuracy a decoded report may have, metres (10,000 km: no building is
    /// larger, and its square stays finite); variances up to its square.
    public static let accuracyLimit = 1e7

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let covariance: PositionCovariance
        if let given = try c.decodeIfPresent(PositionCovariance.self, forKey: .covariance) {
            let limit = Self.accuracyLimit * Self.accuracyLimit
            guard given.isHorizontalCovariance, given.xx <= limit, given.yy <= limit else {
                throw DecodingError.dataCorruptedError(
                    forKey: .covariance, in: c,
                    debugDescription:
                        "expected a covariance: xx and yy from 0 to 1e14 m², xy² ≤ xx·yy (got xx \(given.xx), yy \(given.yy), xy \(given.xy))"
                )
            }
            covariance = given
        } else {
            let accuracy = try c.decode(Double.self, forKey: .accuracy)
            guard accuracy >= 0, accuracy <= Self.accuracyLimit else {
                throw DecodingError.dataCorruptedError(
                    forKey: .accuracy, in: c,
                    debugDescription: "expected a radius from 0 to 1e7 m, got \(accuracy)")
            }
            covariance = PositionCovariance(xx: accuracy * accuracy / 2, xy: 0, yy: accuracy * accuracy / 2)
        }
        let timestamp = try c.decode(Double.self, forKey: .timestamp)
        guard timestamp.isFinite else {
            throw DecodingError.dataCorruptedError(
                forKey: .timestamp, in: c, debugDescription: "expected a finite time")
        }
        let position = try c.decode(Point3D.self, forKey: .position)
        guard position.x.isFinite, position.y.isFinite, position.z.isFinite else {
            throw DecodingError.dataCorruptedError(
                forKey: .position, in: c, debugDescription: "expected finite coordinates")
        }
        let beaconCount = try c.decode(Int.self, forKey: .beaconCount)
        guard beaconCount >= 0 else {
            throw DecodingError.dataCorruptedError(
                forKey: .beaconCount, in: c, debugDescription: "expected a count, 0 or more, got \(beaconCount)")
        }
        self.init(
            timestamp: timestamp,
            device: try c.decodeIfPresent(String.self, forKey: .device),
            position: position,
            level: try c.decode(Int.self, forKey: .level),
            covariance: covariance,
            velocity: try c.decodeIfPresent(Point2D.self, forKey: .velocity),
            zone: try c.decodeIfPresent(String.self, forKey: .zone),
            source: try c.decode(Source.self, forKey: .source),
            beaconCount: beaconCount,
            deviceOffset: try c.decodeIfPresent(Double.self, forKey: .deviceOffset))
        motion = try c.decodeIfPresent(ModeProbabilities.self, forKey: .motion)
        if let p = try c.decodeIfPresent(Double.self, forKey: .zoneProbability) {
            guard p >= 0, p <= 1 else {
                throw DecodingError.dataCorruptedError(
                    forKey: .zoneProbability, in: c, debugDescription: "expected a probability from 0 to 1, got \(p)")
            }
            zoneProbability = p
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(timestamp, forKey: .timestamp)
        try c.encodeIfPresent(device, forKey: .device)
        try c.encode(position, forKey: .position)
        try c.encode(level, forKey: .level)
        try c.encode(accuracy, forKey: .accuracy)
        try c.encode(covariance, forKey: .covariance)
        try c.encode(ellipse, forKey: .ellipse)
        try c.encodeIfPresent(velocity, forKey: .velocity)
        try c.encodeIfPresent(speed, forKey: .speed)
        try c.encodeIfPresent(zone, forKey: .zone)
        try c.encodeIfPresent(zoneProbability, forKey: .zoneProbability)
        try c.encode(source, forKey: .source)
        try c.encode(beaconCount, forKey: .beaconCount)
        try c.encodeIfPresent(deviceOffset, forKey: .deviceOffset)
        try c.encodeIfPresent(motion, forKey: .motion)
    }
}

extension PositioningEngine.TrackingMode: Codable {}
