/// How a fix was obtained.
public enum FixStatus: Sendable, Hashable {
    /// The estimator converged: the step fell below the tolerance.
    case converged
    /// The iteration limit was reached before the step fell below the tolerance; the position
    /// is the best one found.
    case iterationLimit
    /// The observations cannot determine a position; the fix is a weighted centroid whose
    /// covariance spans the whole region the phone may be in.
    case fallback(FallbackReason)
    /// The beacons' geometry determines only `rank` of the unknown coordinates (for example
    /// collinear beacons in 2D: rank 1). The position moves only along the determined
    /// directions; the covariance across them is as large as the ranges allow.
    case degenerate(rank: Int)

    /// Whether the position was fully determined by the estimator.
    public var isDetermined: Bool {
        switch self {
        case .converged, .iterationLimit: return true
        case .fallback, .degenerate: return false
        }
    }
}

/// Why a fix fell back to a weighted centroid.
public enum FallbackReason: Sendable, Hashable {
    /// Fewer beacons than unknowns + 1 (`required`: 3 in 2D, 4 in 3D).
    case tooFewBeacons(available: Int, required: Int)
    /// All beacons stand at one point: only the distance is known, not the direction.
    case coincidentBeacons
    /// The placeholder state of a ``Fix`` that no solve has filled yet.
    case unsolved
}
