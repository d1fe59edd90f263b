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
}
