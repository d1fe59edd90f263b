/// Why a time-stamped sample was refused by an RSSI filter or a proximity classifier.
/// The filter's state is unchanged after any of these.
public enum FilterInputError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The sample is older than the previous one (seconds). Sort the samples by time, or
    /// keep one filter per source.
    case timeWentBackwards(previous: Double, current: Double)
    /// The timestamp is NaN or infinite.
    case nonFiniteTime(Double)
    /// The value (RSSI in dBm, or a distance in metres) is NaN or infinite, or a distance is
    /// not positive.
    case invalidValue(Double)

    public var description: String {
        switch self {
        case .timeWentBackwards(let previous, let current):
            return "sample time \(current) s is before the previous sample's \(previous) s; feed samples in time order"
        case .nonFiniteTime(let t):
            return "sample time \(t) is not a finite number of seconds"
        case .invalidValue(let v):
            return "sample value \(v) is not valid (RSSI must be finite dBm, distance finite positive metres)"
        }
    }
}
