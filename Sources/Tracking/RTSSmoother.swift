import BeaconModel
import LinearAlgebra

/// The Rauch–Tung–Striebel fixed-interval smoother over the steps a ``KalmanTracker`` recorded
/// (``TrackerConfiguration/recordsHistory``): for offline batches, every estimate uses the
/// measurements after it as well as before.
///
/// Backwards over k = N−2 … 0 within each segment (Rauch, Tung & Striebel, AIAA J. 1965):
///
///     Cₖ   = Pₖ Fₖ₊₁ᵀ (P⁻ₖ₊₁)⁻¹          (solved with the Cholesky factor of P⁻ₖ₊₁)
///     xˢₖ  = xₖ + Cₖ (xˢₖ₊₁ − x⁻ₖ₊₁)
///     Pˢₖ  = Pₖ + Cₖ (Pˢₖ₊₁ − P⁻ₖ₊₁) Cₖᵀ
///
/// where xₖ, Pₖ are filtered and x⁻ₖ₊₁, P⁻ₖ₊₁ predicted. A step that starts a segment (start,
/// reset, floor change, coast limit) is not linked to the one before it: each segment is smoothed
/// on its own. If a predicted covariance is numerically singular, that link falls back to the
/// filtered estimate (documented fallback; it does not happen with q > 0).
public struct RTSSmoother: Sendable {
    /// The outline to keep smoothed positions inside (projected like the tracker does), if any.
    public var outline: Polygon?
    /// How far inside the outline a projected position is placed, metres.
    public var outlineMargin: Double

    /// A smoother; `outline` (optional) keeps the smoothed positions inside a floor outline.
    public init(outline: Polygon? = nil, outlineMargin: Double = 0.05) {
        self.outline = outline
        self.outlineMargin = outlineMargin
    }

    /// Smoothed estimates, one per recorded step, in the same order.
    ///
    /// Complexity: O(N) for N steps.
    /// - Throws: `emptyHistory` when `steps` is empty.
    public func smooth(_ steps: [TrackStep]) throws(TrackingError) -> [TrackEstimate] {
        guard !steps.isEmpty else { throw .emptyHistory }
        var xs = steps.map(\.state)
        var ps = steps.map(\.covariance)
        var k = steps.count - 2
        while k >= 0 {
            let next = steps[k + 1]
            if !next.startsSegment, let lPred = next.predictedCovariance.choleskyFactor {
                let f = next.transition
                // Cₖᵀ = (P⁻ₖ₊₁)⁻¹ F Pₖ: column j of Cₖᵀ (= row j of Cₖ) solves P⁻ₖ₊₁ c = column j of F Pₖ.
                let fp = (f * steps[k].covariance).transposed  // row j = column j of F Pₖ
                let gain = Matrix4(
                    Matrix4.choleskySolve(lPred, fp.r0), Matrix4.choleskySolve(lPred, fp.r1),
                    Matrix4.choleskySolve(lPred, fp.r2), Matrix4.choleskySolve(lPred, fp.r3))
                let x = steps[k].state + gain * (xs[k + 1] - next.predictedState)
                let p = (steps[k].covariance + gain * (ps[k + 1] - next.predictedCovariance) * gain.transposed)
                    .symmetrized
                if x[0].isFinite, x[1].isFinite, x[2].isFinite, x[3].isFinite, p.isFinite {
                    xs[k] = x
                    ps[k] = p
                }
            }
            k -= 1
        }
        var result: [TrackEstimate] = []
        result.reserveCapacity(steps.count)
        for i in steps.indices {
            var x = xs[i]
            if let outline {
                let q = OutlineConstraint.project(Point2D(x: x[0], y: x[1]), into: outline, margin: outlineMargin)
                x[0] = q.x
                x[1] = q.y
            }
            result.append(TrackEstimate(time: steps[i].time, state: x, covariance: ps[i], level: steps[i].level))
        }
        return result
    }

    /// Smoothed estimates of a tracker that recorded its history.
    /// - Throws: `emptyHistory` when the tracker recorded nothing.
    public func smooth(_ tracker: KalmanTracker) throws(TrackingError) -> [TrackEstimate] {
        try smooth(tracker.history)
    }
}
