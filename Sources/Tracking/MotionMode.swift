/// How the person carrying the phone is moving, as the tracker's mixture of motion models
/// distinguishes it (see ``MotionModes`` and Docs/Reference/Tracking.md, "Motion modes").
public enum MotionMode: Int, CaseIterable, Sendable, Hashable, CustomStringConvertible {
    /// Standing or sitting: the position drifts by a few cm/s and the velocity is pulled to zero.
    case standing
    /// Strolling or browsing: slow, hesitant movement (a few decimetres per second).
    case strolling
    /// Walking: a walker's 1–1.5 m/s with turns and speed changes.
    case walking

    public var description: String {
        switch self {
        case .standing: return "standing"
        case .strolling: return "strolling"
        case .walking: return "walking"
        }
    }
}
