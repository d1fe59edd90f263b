import Foundation

extension PositionReport: CustomStringConvertible {
    /// One line for logs, metres and seconds:
    /// `t=12.000 phone-1 (3.10, 4.20, 1.82) ±1.20 m level 0 zone lobby tracked 1.05 m/s`.
    public var description: String {
        var text = "t=\(String(format: "%.3f", timestamp))"
        if let device { text += " \(device)" }
        text += String(
            format: " (%.2f, %.2f, %.2f) ±%.2f m level %d", position.x, position.y, position.z,
            accuracy, level)
        if let zone { text += " zone \(zone)" }
        text += " \(source)"
        if let speed { text += String(format: " %.2f m/s", speed) }
        return text
    }
}

extension PositioningEngine.SampleOutcome: CustomStringConvertible {
    /// `accepted`, `unknownBeacon`, `invalidRSSI(<why>)`, `invalidTime` or `late`.
    public var description: String {
        switch self {
        case .accepted: return "accepted"
        case .unknownBeacon: return "unknownBeacon"
        case .invalidRSSI(let rejection): return "invalidRSSI(\(rejection))"
        case .invalidTime: return "invalidTime"
        case .late: return "late"
        }
    }
}

extension PositioningEngine.TrackingMode: CustomStringConvertible {
    /// `kalman` or `none`.
    public var description: String { rawValue }
}
