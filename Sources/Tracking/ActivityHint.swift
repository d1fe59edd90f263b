/// What the phone's own activity recognition says about its user (iOS `CMMotionActivity`,
/// Android activity recognition): evidence for the tracker's ``MotionMode``.
public enum ActivityHint: String, Sendable, Hashable, CaseIterable {
    /// The phone reports its user as stationary.
    case stationary
    /// The phone reports its user as moving (walking or running).
    case moving

    /// P(hint | mode) for (standing, strolling, walking): the likelihood the tracker weighs the
    /// mode probabilities with. Activity recognisers report walking reliably and need a few
    /// seconds to report a stop; slow browsing is reported either way.
    ///
    ///     stationary: 0.9 standing, 0.4 strolling, 0.05 walking
    ///     moving:     0.1 standing, 0.6 strolling, 0.95 walking
    public var likelihood: (Double, Double, Double) {
        switch self {
        case .stationary: return (0.9, 0.4, 0.05)
        case .moving: return (0.1, 0.6, 0.95)
        }
    }
}
