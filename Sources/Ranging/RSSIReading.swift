/// A validated RSSI value in dBm: finite, negative and not below any receiver's sensitivity.
///
/// Build one with ``init(validating:)``; the engine does so for every sample it receives,
/// so that downstream code never sees the platform's "no reading" markers, NaN or positive
/// values.
public struct RSSIReading: Sendable, Hashable, Comparable, Codable {
    /// Received signal strength, dBm, within ``plausibleRange``.
    public let dBm: Double

    /// Values accepted, dBm: −130 (below the sensitivity of every BLE receiver) up to,
    /// excluding, 0.
    public static let plausibleRange: Range<Double> = -130.0..<0.0

    /// Validates `dBm`.
    /// - Throws: ``RSSIRejection/noReading(_:)`` for 0 and 127, ``RSSIRejection/nonFinite(_:)``
    ///   for NaN and ±∞, ``RSSIRejection/positive(_:)`` for other positive values and
    ///   ``RSSIRejection/implausiblyLow(_:)`` below −130 dBm.
    public init(validating dBm: Double) throws(RSSIRejection) {
        if let rejection = Self.rejection(of: dBm) { throw rejection }
        self.dBm = dBm
    }

    /// The reason `dBm` would be refused, or nil when it is a valid reading.
    public static func rejection(of dBm: Double) -> RSSIRejection? {
        if !dBm.isFinite { return .nonFinite(dBm) }
        if dBm == 0 || dBm == 127 { return .noReading(dBm) }
        if dBm > 0 { return .positive(dBm) }
        if dBm < plausibleRange.lowerBound { return .implausiblyLow(dBm) }
        return nil
    }

    public static func < (lhs: RSSIReading, rhs: RSSIReading) -> Bool { lhs.dBm < rhs.dBm }

    /// Decodes a bare number (dBm) and validates it; an invalid value is a
    /// `DecodingError.dataCorrupted` carrying the ``RSSIRejection`` message.
    public init(from decoder: any Decoder) throws {
        let value = try decoder.singleValueContainer().decode(Double.self)
        do {
            try self.init(validating: value)
        } catch {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: error.description))
        }
    }

    /// Encodes the value as a bare number (dBm).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(dBm)
    }
}
