/// What an update did with a measurement.
public enum UpdateOutcome: Sendable, Hashable {
    /// The measurement passed the gate and was fused. `mahalanobisSquared` is the squared
    /// Mahalanobis distance of its innovation, νᵀ S⁻¹ ν (dimensionless).
    case accepted(mahalanobisSquared: Double)
    /// The measurement failed the Mahalanobis gate and was ignored; the state is only predicted
    /// to its time. `consecutive` counts rejections in a row (of this kind of measurement).
    case gated(mahalanobisSquared: Double, consecutive: Int)
    /// The measurement failed the gate for the configured number of times in a row, so the track
    /// was taken as lost and reset: to the fix itself for a position measurement; for an RSSI
    /// sample, by inflating the position covariance so that the following samples pull it in.
    case reset

    /// Whether the measurement changed the estimate (accepted or reset).
    public var isUsed: Bool {
        if case .gated = self { return false }
        return true
    }

    /// The verdict on an independent fix whose squared Mahalanobis distance from the track is
    /// `d2`: `.accepted` within the gate (the count of rejections in a row starts again),
    /// `.gated` outside it, `.reset` when `limit` fixes in a row were outside it (the caller
    /// restarts the track at the fix).
    static func verdict(mahalanobisSquared d2: Double, gate: Double, rejections: inout Int, limit: Int) -> UpdateOutcome
    {
        guard d2 > gate else {
            rejections = 0
            return .accepted(mahalanobisSquared: d2)
        }
        rejections += 1
        guard rejections >= limit else { return .gated(mahalanobisSquared: d2, consecutive: rejections) }
        return .reset
    }
}
