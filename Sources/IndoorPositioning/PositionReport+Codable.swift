import LinearAlgebra

/// `Codable` with the stored properties under their own names, plus the derived `accuracy`
/// (metres) and `ellipse` for readers of the JSON that do not do the algebra. Decoding uses
/// `covariance` when present, otherwise an isotropic covariance from `accuracy`; the derived
/// fields are never trusted over the covariance.
extension PositionReport: Codable {
    private enum CodingKeys: String, CodingKey {
        case timestamp, device, position, level, accuracy, covariance, ellipse, velocity, speed, zone, source
        case beaconCount, deviceOffset, motion
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let covariance: PositionCovariance
        if let given = try c.decodeIfPresent(PositionCovariance.self, forKey: .covariance) {
            covariance = given
        } else {
            let accuracy = try c.decode(Double.self, forKey: .accuracy)
            covariance = PositionCovariance(xx: accuracy * accuracy / 2, xy: 0, yy: accuracy * accuracy / 2)
        }
        self.init(
            timestamp: try c.decode(Double.self, forKey: .timestamp),
            device: try c.decodeIfPresent(String.self, forKey: .device),
            position: try c.decode(Point3D.self, forKey: .position),
            level: try c.decode(Int.self, forKey: .level),
            covariance: covariance,
            velocity: try c.decodeIfPresent(Point2D.self, forKey: .velocity),
            zone: try c.decodeIfPresent(String.self, forKey: .zone),
            source: try c.decode(Source.self, forKey: .source),
            beaconCount: try c.decode(Int.self, forKey: .beaconCount),
            deviceOffset: try c.decodeIfPresent(Double.self, forKey: .deviceOffset))
        motion = try c.decodeIfPresent(ModeProbabilities.self, forKey: .motion)
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
        try c.encode(source, forKey: .source)
        try c.encode(beaconCount, forKey: .beaconCount)
        try c.encodeIfPresent(deviceOffset, forKey: .deviceOffset)
        try c.encodeIfPresent(motion, forKey: .motion)
    }
}

extension PositioningEngine.TrackingMode: Codable {}
