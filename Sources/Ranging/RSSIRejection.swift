/// Why an RSSI value was refused. Every case says what the value was and what to do.
public enum RSSIRejection: Error, Sendable, Hashable, CustomStringConvertible {
    /// 0 or 127: the platform's "no reading" marker (iOS reports 0, some Android stacks 127).
    /// Skip the sample; it is not a measurement.
    case noReading(Double)
    /// NaN or ±∞.
    case nonFinite(Double)
    /// A positive value other than 127: received power above 1 mW is not a BLE reading.
    case positive(Double)
    /// Below ``RSSIReading/plausibleRange``'s lower end: under any receiver's sensitivity.
    case implausiblyLow(Double)

    /// The refused value, dBm.
    public var value: Double {
        switch self {
        case .noReading(let v), .nonFinite(let v), .positive(let v), .implausiblyLow(let v): return v
        }
    }

    public var description: String {
        switch self {
        case .noReading(let v):
            return "RSSI \(v) is the platform's 'no reading' marker; skip the sample"
        case .nonFinite(let v):
            return "RSSI \(v) is not a finite number of dBm"
        case .positive(let v):
            return "RSSI \(v) dBm is positive; BLE readings are negative dBm (check the sign and units)"
        case .implausiblyLow(let v):
            return
                "RSSI \(v) dBm is below \(RSSIReading.plausibleRange.lowerBound) dBm, under any receiver's sensitivity (check the units)"
        }
    }
}
