import BeaconModel

/// `Codable` with every stored property under its own name. ``Fix/gdop`` is left out when it
/// is infinite (JSON has no infinity; a fallback's geometry determines nothing) and read back
/// as `.infinity` when missing.
extension Fix: Codable {
    private enum CodingKeys: String, CodingKey {
        case position, level, covariance, accuracy, ellipse, residualRMS, gdop, usedBeacons, rejectedBeacons
        case iterations, status, constrainedToOutline
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init()
        position = try c.decode(Point3D.self, forKey: .position)
        level = try c.decode(Int.self, forKey: .level)
        covariance = try c.decode(PositionCovariance.self, forKey: .covariance)
        accuracy = try c.decode(Double.self, forKey: .accuracy)
        ellipse = try c.decode(ErrorEllipse.self, forKey: .ellipse)
        residualRMS = try c.decode(Double.self, forKey: .residualRMS)
        gdop = try c.decodeIfPresent(Double.self, forKey: .gdop) ?? .infinity
        usedBeacons = try c.decode([BeaconIdentity].self, forKey: .usedBeacons)
        rejectedBeacons = try c.decode([RejectedBeacon].self, forKey: .rejectedBeacons)
        iterations = try c.decode(Int.self, forKey: .iterations)
        status = try c.decode(FixStatus.self, forKey: .status)
        constrainedToOutline = try c.decode(Bool.self, forKey: .constrainedToOutline)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(position, forKey: .position)
        try c.encode(level, forKey: .level)
        try c.encode(covariance, forKey: .covariance)
        try c.encode(accuracy, forKey: .accuracy)
        try c.encode(ellipse, forKey: .ellipse)
        try c.encode(residualRMS, forKey: .residualRMS)
        if gdop.isFinite { try c.encode(gdop, forKey: .gdop) }
        try c.encode(usedBeacons, forKey: .usedBeacons)
        try c.encode(rejectedBeacons, forKey: .rejectedBeacons)
        try c.encode(iterations, forKey: .iterations)
        try c.encode(status, forKey: .status)
        try c.encode(constrainedToOutline, forKey: .constrainedToOutline)
    }
}
