import BeaconModel
import LinearAlgebra

/// How much of the covariance a refinement (the fixed lag, the smoother) takes off is earned by
/// the corrections it makes: what the refined reports' radius keeps.
///
/// A Rauch–Tung–Striebel refinement of a filtered estimate x_f (covariance P_f) to x_s (P_s)
/// makes a correction δ = x_s − x_f that is uncorrelated with the refined error, so under the
/// filter's model E[δδᵀ] = P_f − P_s and E|δ|² = tr(P_f − P_s) (Rauch, Tung and Striebel, AIAA
/// Journal 3(8), 1965). Readings whose errors stay alike for longer than the model allows (a
/// model wrong along a whole corridor, a phone that keeps one body's shadow) let the refinement
/// claim that shrinkage without correcting as much, and its radius then shrinks while its error
/// does not. Per device, over about ``memory`` refined reports, with exponential forgetting:
///
///     κ = Σ |δ|² / Σ tr(P_f − P_s),  clamped to 0…1,
///     reported P = P_f − κ (P_f − P_s) = P_s + (1 − κ)(P_f − P_s),
///
/// the filtered covariance less the share of the claimed reduction that the corrections show.
/// κ = 1 (corrections as large as claimed) leaves P_s; κ = 0 leaves the causal radius. It needs
/// no truth, only the device's own causal and refined estimates, and it never moves a position.
struct RefinementGain: Sendable, Hashable {
    /// Refined reports of memory of the running sums.
    static let memory = 60.0

    /// Σ tr(P_f − P_s) and Σ |δ|², m², with forgetting.
    private var claimed = 0.0
    private var corrected = 0.0

    /// The gain of no refinement yet.
    init() {}

    /// Counts one refined estimate against its causal one and returns the covariance to report
    /// for it, m²: `causal` (P_f at `causalPosition`) less κ times what `refined` (P_s at
    /// `refinedPosition`) takes off it, κ including this estimate. Non-finite input counts
    /// nothing and returns `refined`.
    mutating func covariance(
        causal: PositionCovariance, causalPosition: Point2D,
        refined: PositionCovariance, refinedPosition: Point2D
    ) -> PositionCovariance {
        let dx = refinedPosition.x - causalPosition.x, dy = refinedPosition.y - causalPosition.y
        let claim = max(causal.xx + causal.yy - refined.xx - refined.yy, 0)
        let correction = dx * dx + dy * dy
        guard claim.isFinite, correction.isFinite else { return refined }
        let keep = 1 - 1 / Self.memory
        claimed = keep * claimed + claim
        corrected = keep * corrected + correction
        let kappa = claimed > 0 ? min(corrected / claimed, 1) : 1
        var reported = refined
        reported.xx += (1 - kappa) * (causal.xx - refined.xx)
        reported.xy += (1 - kappa) * (causal.xy - refined.xy)
        reported.yy += (1 - kappa) * (causal.yy - refined.yy)
        return reported
    }
}

/// What a tracked report's refinement is measured against, kept from the epoch it was tracked:
/// the consider covariance of the models' misfit (``ModelMisfit``), the causal position and the
/// tracker's causal covariance (``RefinementGain``).
struct CausalEpoch: Sendable {
    /// The epoch's end, seconds.
    var time: Double
    /// The consider covariance, m², added to the refined report's.
    var consider: PositionCovariance
    /// The tracker's causal position, metres, and covariance, m² (without the consider term).
    var position: Point2D
    var covariance: PositionCovariance
}
