/// What the phone's own activity recognition says about its user (iOS `CMMotionActivity`,
/// Android activity recognition): evidence for the tracker's ``MotionMode``. The RSSI CSV's
/// optional `activity` column carries it as `stationary` or `walking` (`unknown` or empty: no
/// hint).
public enum ActivityHint: String, Sendable, Hashable, Codable, CaseIterable {
    /// The phone reports its user as stationary.
    case stationary
    /// The phone reports its user as moving on foot (walking or running).
    case walking

    /// P(hint | mode) for (standing, strolling, walking): the likelihood the tracker weighs the
    /// mode probabilities with.
    ///
    ///     stationary: 0.95 standing, 0.02 strolling, 0.002 walking
    ///     walking:    0.05 standing, 0.7 strolling,  0.98 walking
    ///
    /// Activity recognisers tell still from walking with about 95 % accuracy once settled and
    /// report slow browsing either way. "Stationary" is weighted more strongly than that on
    /// purpose: a mixture that keeps even 1 % of the walking model adds that model's process
    /// noise, which moved a standing dot (Docs/Reference/Tracking.md, "The phone's activity hint").
    public var likelihood: (Double, Double, Double) {
        switch self {
        case .stationary: return Self.stationaryLikelihood
        case .walking: return Self.walkingLikelihood
        }
    }

    static let stationaryLikelihood = (0.95, 0.02, 0.002)
    static let walkingLikelihood = (0.05, 0.7, 0.98)
}
