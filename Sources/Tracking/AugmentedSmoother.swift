import BeaconModel
import LinearAlgebra

/// The Rauch–Tung–Striebel smoother over the steps an ``AugmentedTracker`` recorded: for offline
/// batches, every estimate (position, velocity, device offset and shadowing biases together)
/// uses the samples after it as well as before.
///
/// Backwards over k within each segment (Rauch, Tung & Striebel, AIAA J. 3(8), 1965):
///
///     Cₖ  = Pₖ Fₖ₊₁ᵀ (P⁻ₖ₊₁)⁻¹                    (solved with the Cholesky factor of P⁻ₖ₊₁)
///     sˢₖ = sₖ + Cₖ (sˢₖ₊₁ − s⁻ₖ₊₁)
///     Pˢₖ = Pₖ + Cₖ (Pˢₖ₊₁ − P⁻ₖ₊₁) Cₖᵀ
///
/// with the block-diagonal F of ``AugmentedStep``. Because the biases are in the state, a run
/// of samples that one obstacle biased is recognised as such from both sides, and the smoothed
/// covariance does not shrink as if those samples were independent. A link whose predicted
/// covariance is not positive-definite, or whose result is not finite, keeps the filtered
/// estimate (documented fallback).
public struct AugmentedSmoother: Sendable {
    /// A smoother.
    public init() {}

    /// Smoothed estimates, one per recorded step, in the same order.
    ///
    /// Complexity: O(N n³) for N steps of n states.
    /// - Throws: `emptyHistory` when `steps` is empty.
    public func smooth(_ steps: [AugmentedStep]) throws(TrackingError) -> [TrackEstimate] {
        guard let last = steps.last else { throw .emptyHistory }
        var result = Array(
            repeating: Self.estimate(of: last, state: last.state, covariance: last.covariance),
            count: steps.count)
        var xs = last.state
        var ps = last.covariance
        var k = steps.count - 2
        while k >= 0 {
            let step = steps[k], next = steps[k + 1]
            if next.startsSegment || !link(step, next, &xs, &ps) {
                xs = step.state
                ps = step.covariance
            }
            result[k] = Self.estimate(of: step, state: xs, covariance: ps)
            k -= 1
        }
        return result
    }

    /// Replaces (xs, ps), the smoothed estimate of `next`, by that of `step`; false (leaving
    /// them unusable) when the link cannot be made.
    private func link(
        _ step: AugmentedStep, _ next: AugmentedStep, _ xs: inout [Double],
        _ ps: inout SquareMatrix
    ) -> Bool {
        let n = step.state.count
        guard next.state.count == n, next.biasCorrelation.count == step.biasCorrelation.count else { return false }
        var factor = next.predictedCovariance
        guard factor.factorCholesky() else { return false }
        // M = F Pₖ, then X = (P⁻ₖ₊₁)⁻¹ M = Cₖᵀ, column by column.
        var x = step.covariance
        let fpv = next.positionVelocity, fvv = next.velocity
        for c in 0..<n {
            x[0, c] += fpv * x[2, c]
            x[1, c] += fpv * x[3, c]
            x[2, c] *= fvv
            x[3, c] *= fvv
            for (j, f) in next.biasCorrelation.enumerated() { x[AugmentedTracker.biasIndex + j, c] *= f }
        }
        var column = Array(repeating: 0.0, count: n)
        for c in 0..<n {
            for r in 0..<n { column[r] = x[r, c] }
            factor.solveFactored(&column)
            for r in 0..<n { x[r, c] = column[r] }
        }
        // sˢₖ = sₖ + Xᵀ (sˢₖ₊₁ − s⁻ₖ₊₁)
        var smoothed = step.state
        for i in 0..<n {
            var sum = 0.0
            for r in 0..<n { sum += x[r, i] * (xs[r] - next.predictedState[r]) }
            smoothed[i] += sum
        }
        // Pˢₖ = Pₖ + Xᵀ (Pˢₖ₊₁ − P⁻ₖ₊₁) X
        var d = ps
        for i in 0..<(n * n) { d.storage[i] -= next.predictedCovariance.storage[i] }
        var dx = SquareMatrix(size: n)
        for r in 0..<n {
            for c in 0..<n {
                var sum = 0.0
                for m in 0..<n { sum += d[r, m] * x[m, c] }
                dx[r, c] = sum
            }
        }
        var p = step.covariance
        for r in 0..<n {
            for c in 0..<n {
                var sum = 0.0
                for m in 0..<n { sum += x[m, r] * dx[m, c] }
                p[r, c] += sum
            }
        }
        p.symmetrize()
        guard smoothed.allSatisfy(\.isFinite), p.isFinite, p[0, 0] > 0, p[1, 1] > 0 else { return false }
        xs = smoothed
        ps = p
        return true
    }

    private static func estimate(of step: AugmentedStep, state: [Double], covariance: SquareMatrix) -> TrackEstimate {
        TrackEstimate(
            time: step.time, position: Point2D(x: state[0], y: state[1]),
            velocity: Point2D(x: state[2], y: state[3]),
            covarianceXX: covariance[0, 0], covarianceXY: covariance[0, 1],
            covarianceYY: covariance[1, 1], level: step.level)
    }
}
