/// Why the engine could not be set up or could not smooth.
public enum PositioningError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A configuration value is out of range; the message names it.
    case invalidConfiguration(String)
    /// The plan has no beacons, so nothing can be located.
    case emptyPlan
    /// Smoothing needs `recordsHistory` to be on from the start.
    case historyNotRecorded
    /// Learning from traffic found nothing to learn from; the message says why.
    case noUsableTraffic(String)

    public var description: String {
        switch self {
        case .invalidConfiguration(let detail):
            return "invalid positioning configuration: \(detail)"
        case .emptyPlan:
            return "the floor plan has no beacons; place at least three beacons on a floor"
        case .historyNotRecorded:
            return
                "smoothing needs the engine to record history: set Configuration.recordsHistory = true before pushing samples"
        case .noUsableTraffic(let detail):
            return "nothing to learn path-loss models from: \(detail)"
        }
    }
}
