import BeaconModel
import LinearAlgebra

/// `Codable` with every stored property under its own name (``Fix/chiSquare`` and
/// ``Fix/degreesOfFreedom`` only when there are degrees of freedom, ``Fix/centroidPriorWeight``
/// only when a prior was used). ``Fix/gdop`` is left out when it
/// is infinite (JSON has no infinity; a fallback's geometry determines nothing) and read back
/// as `.infinity` when missing.
extension Fix: Codable {
    private enum CodingKeys: String, CodingKey {
        case position, level, covariance, accuracy, ellipse, residualRMS, gdop, usedBeacons, rejectedBeacons
        case iterations, status, constrainedToOutline, commonOffset, commonOffsetVariance, chiSquare
        case degreesOfFreedom, centroidPriorWeight
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
        commonOffset = try c.decodeIfPresent(Double.self, forKey: .commonOffset) ?? 0
        commonOffsetVariance = try c.decodeIfPresent(Double.self, forKey: .commonOffsetVariance) ?? 0
        chiSquare = try c.decodeIfPresent(Double.self, forKey: .chiSquare) ?? 0
        degreesOfFreedom = try c.decodeIfPresent(Int.self, forKey: .degreesOfFreedom) ?? 0
        centroidPriorWeight = try c.decodeIfPresent(Double.self, forKey: .centroidPriorWeight) ?? 0
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
        // Only when estimated, so that fixes without it encode as before.
        if commonOffsetVariance > 0 {
            try c.encode(commonOffset, forKey: .commonOffset)
            try c.encode(commonOffsetVariance, forKey: .commonOffsetVariance)
        }
        if degreesOfFreedom > 0 {
            try c.encode(chiSquare, forKey: .chiSquare)
            try c.encode(degreesOfFreedom, forKey: .degreesOfFreedom)
        }
        if centroidPriorWeight > 0 { try c.encode(centroidPriorWeight, forKey: .centroidPriorWeight) }
    }
}

/// `Codable` as one flat object named by its case: `{"kind": "converged"}`,
/// `{"kind": "degenerate", "rank": 1}`,
/// `{"kind": "fallback", "reason": "tooFewBeacons", "available": 2, "required": 3}`.
extension FixStatus: Codable {
    private enum CodingKeys: String, CodingKey { case kind, rank }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        switch try c.decode(String.self, forKey: .kind) {
        case "converged": self = .converged
        case "iterationLimit": self = .iterationLimit
        case "degenerate": self = .degenerate(rank: try c.decode(Int.self, forKey: .rank))
        case "fallback": self = .fallback(try FallbackReason(from: decoder))
        case let other:
            throw DecodingError.dataCorruptedError(
                forKey: .kind, in: c,
                debugDescription:
                    "unknown fix status '\(other)'; expected converged, iterationLimit, degenerate or fallback")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .converged: try c.encode("converged", forKey: .kind)
        case .iterationLimit: try c.encode("iterationLimit", forKey: .kind)
        case .degenerate(let rank):
            try c.encode("degenerate", forKey: .kind)
            try c.encode(rank, forKey: .rank)
        case .fallback(let reason):
            try c.encode("fallback", forKey: .kind)
            try reason.encode(to: encoder)
        }
    }
}

/// `Codable` as `{"reason": "unsolved"}`, `{"reason": "coincidentBeacons"}` or
/// `{"reason": "tooFewBeacons", "available": 2, "required": 3}`.
extension FallbackReason: Codable {
    private enum CodingKeys: String, CodingKey { case reason, available, required }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        switch try c.decode(String.self, forKey: .reason) {
        case "unsolved": self = .unsolved
        case "coincidentBeacons": self = .coincidentBeacons
        case "tooFewBeacons":
            self = .tooFewBeacons(
                available: try c.decode(Int.self, forKey: .available),
                required: try c.decode(Int.self, forKey: .required))
        case let other:
            throw DecodingError.dataCorruptedError(
                forKey: .reason, in: c,
                debugDescription:
                    "unknown fallback reason '\(other)'; expected unsolved, coincidentBeacons or tooFewBeacons")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .unsolved: try c.encode("unsolved", forKey: .reason)
        case .coincidentBeacons: try c.encode("coincidentBeacons", forKey: .reason)
        case .tooFewBeacons(let available, let required):
            try c.encode("tooFewBeacons", forKey: .reason)
            try c.encode(available, forKey: .available)
            try c.encode(required, forKey: .required)
        }
    }
}

/// `Codable` as `{"reason": "inconsistentResidual", "residual": 9.1, "normalized": 3.2}`.
extension RejectionReason: Codable {
    private enum CodingKeys: String, CodingKey { case reason, residual, normalized }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let reason = try c.decode(String.self, forKey: .reason)
        guard reason == "inconsistentResidual" else {
            throw DecodingError.dataCorruptedError(
                forKey: .reason, in: c,
                debugDescription: "unknown rejection reason '\(reason)'; expected inconsistentResidual")
        }
        self = .inconsistentResidual(
            residual: try c.decode(Double.self, forKey: .residual),
            normalized: try c.decode(Double.self, forKey: .normalized))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .inconsistentResidual(let residual, let normalized):
            try c.encode("inconsistentResidual", forKey: .reason)
            try c.encode(residual, forKey: .residual)
            try c.encode(normalized, forKey: .normalized)
        }
    }
}
