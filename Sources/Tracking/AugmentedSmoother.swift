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
    /// Scratch space for the backward pass, reused between calls so that smoothing a window of
    /// steps of one size allocates nothing once warm (fixed-lag smoothing runs it every epoch).
    struct Workspace: Sendable {
        var smoothedState: [Double] = []
        var smoothedCovariance = SquareMatrix(size: 0)
        var factor = SquareMatrix(size: 0)
        var gainTransposed = SquareMatrix(size: 0)
        var difference = SquareMatrix(size: 0)
        var product = SquareMatrix(size: 0)
        var linkedCovariance = SquareMatrix(size: 0)
        var column: [Double] = []
        var linkedState: [Double] = []

        /// An empty workspace; it sizes itself to the first steps it smooths.
        init() {}

        /// Makes every buffer fit states of `n` entries (allocates only when the size changes).
        mutating func fit(_ n: Int) {
            guard smoothedState.count != n else { return }
            // Each buffer its own storage, so that the first writes do not copy.
            smoothedState = Array(repeating: 0, count: n)
            column = Array(repeating: 0, count: n)
            linkedState = Array(repeating: 0, count: n)
            smoothedCovariance = SquareMatrix(size: n)
            factor = SquareMatrix(size: n)
            gainTransposed = SquareMatrix(size: n)
            difference = SquareMatrix(size: n)
            product = SquareMatrix(size: n)
            linkedCovariance = SquareMatrix(size: n)
        }
    }

    /// A smoother.
    public init() {}

    /// Smoothed estimates, one per recorded step, in the same order.
    ///
    /// Complexity: O(N n³) for N steps of n states.
    /// - Throws: `emptyHistory` when `steps` is empty.
    public func smooth(_ steps: [AugmentedStep]) throws(TrackingError) -> [TrackEstimate] {
        guard let last = steps.last else { throw .emptyHistory }
        var workspace = Workspace()
        workspace.fit(last.state.count)
        var result = Array(
            repeating: Self.estimate(of: last, state: last.state, covariance: last.covariance), count: steps.count)
        workspace.smoothedState.assign(last.state)
        workspace.smoothedCovariance.assign(last.covariance)
        var k = steps.count - 2
        while k >= 0 {
            let step = steps[k], next = steps[k + 1]
            if next.startsSegment || step.state.count != workspace.smoothedState.count
                || !link(step, next, &workspace)
            {
                if step.state.count != workspace.smoothedState.count { workspace.fit(step.state.count) }
                workspace.smoothedState.assign(step.state)
                workspace.smoothedCovariance.assign(step.covariance)
            }
            result[k] = Self.estimate(
                of: step, state: workspace.smoothedState, covariance: workspace.smoothedCovariance)
            k -= 1
        }
        return result
    }

    /// Replaces the workspace's smoothed state and covariance, those of `next`, by those of
    /// `step`; false (leaving them unusable) when the link cannot be made.
    private func link(_ step: AugmentedStep, _ next: AugmentedStep, _ w: inout Workspace) -> Bool {
        guard Self.gain(step, next, &w) else { return false }
        let n = step.state.count
        Self.linkMean(step, next, gain: w.gainTransposed, &w)
        // Pˢₖ = Pₖ + Xᵀ (Pˢₖ₊₁ − P⁻ₖ₊₁) X
        for i in 0..<(n * n) {
            w.difference.storage[i] = w.smoothedCovariance.storage[i] - next.predictedCovariance.storage[i]
        }
        for r in 0..<n {
            for c in 0..<n {
                var sum = 0.0
                for m in 0..<n { sum += w.difference[r, m] * w.gainTransposed[m, c] }
                w.product[r, c] = sum
            }
        }
        w.linkedCovariance.assign(step.covariance)
        for r in 0..<n {
            for c in 0..<n {
                var sum = 0.0
                for m in 0..<n { sum += w.gainTransposed[m, r] * w.product[m, c] }
                w.linkedCovariance[r, c] += sum
            }
        }
        w.linkedCovariance.symmetrize()
        guard w.linkedState.allSatisfy(\.isFinite), w.linkedCovariance.isFinite, w.linkedCovariance[0, 0] > 0,
            w.linkedCovariance[1, 1] > 0
        else { return false }
        swap(&w.smoothedState, &w.linkedState)
        swap(&w.smoothedCovariance, &w.linkedCovariance)
        return true
    }

    /// The mean of a link, sˢₖ = sₖ + Xᵀ (sˢₖ₊₁ − s⁻ₖ₊₁), into `w.linkedState`: X the link's gain
    /// transposed (``gain(_:_:_:)``), sˢₖ₊₁ the smoothed state in `w.smoothedState`.
    private static func linkMean(
        _ step: AugmentedStep, _ next: AugmentedStep, gain x: SquareMatrix, _ w: inout Workspace
    ) {
        let n = step.state.count
        for i in 0..<n {
            var sum = 0.0
            for r in 0..<n { sum += x[r, i] * (w.smoothedState[r] - next.predictedState[r]) }
            w.linkedState[i] = step.state[i] + sum
        }
    }

    /// The gain of the link from `step` to `next`, transposed, into `w.gainTransposed`:
    /// X = Cₖᵀ = (P⁻ₖ₊₁)⁻¹ F Pₖ (F Pₖ formed in place, then one Cholesky solve per column);
    /// false when the shapes differ or P⁻ₖ₊₁ is not positive-definite. Fits `w` to the size.
    static func gain(_ step: AugmentedStep, _ next: AugmentedStep, _ w: inout Workspace) -> Bool {
        let n = step.state.count
        guard next.state.count == n, next.biasCorrelation.count == step.biasCorrelation.count,
            next.predictedCovariance.size == n, step.covariance.size == n
        else { return false }
        w.fit(n)
        w.factor.assign(next.predictedCovariance)
        guard w.factor.factorCholesky() else { return false }
        w.gainTransposed.assign(step.covariance)
        let fpv = next.positionVelocity, fvv = next.velocity
        for c in 0..<n {
            w.gainTransposed[0, c] += fpv * w.gainTransposed[2, c]
            w.gainTransposed[1, c] += fpv * w.gainTransposed[3, c]
            w.gainTransposed[2, c] *= fvv
            w.gainTransposed[3, c] *= fvv
            for (j, f) in next.biasCorrelation.enumerated() { w.gainTransposed[AugmentedTracker.biasIndex + j, c] *= f }
        }
        for c in 0..<n {
            for r in 0..<n { w.column[r] = w.gainTransposed[r, c] }
            w.factor.solveFactored(&w.column)
            for r in 0..<n { w.gainTransposed[r, c] = w.column[r] }
        }
        return true
    }

    /// Fixed-lag smoothing over a window of steps whose gains are cached
    /// (``AugmentedTracker/prepareSmootherGains(_:)``): the estimates of ``smooth(_:)`` over the
    /// same steps in O(N² n²) instead of O(N n³). The mean runs the same recursion with the cached gains;
    /// of the smoothed covariance only the horizontal block is formed, by unrolling
    /// Pˢₖ = Pₖ + Cₖ (Pˢₖ₊₁ − P⁻ₖ₊₁) Cₖᵀ along the links after step k:
    ///
    ///     E Pˢₖ Eᵀ = E Pₖ Eᵀ + Σⱼ Gⱼ (Pⱼ − P⁻ⱼ) Gⱼᵀ,   Gₖ₊₁ = E Cₖ,  Gⱼ₊₁ = Gⱼ Cⱼ
    ///
    /// (E the two position rows, j over the linked steps after k; a step without a link keeps
    /// its filtered covariance). A result that is not finite or not positive keeps the
    /// filtered estimate of that step.
    /// - Throws: `emptyHistory` when `steps` is empty.
    func smoothWindow(
        _ steps: ArraySlice<AugmentedStep>, workspace w: inout Workspace, into result: inout [TrackEstimate]
    ) throws(TrackingError) {
        guard let last = steps.last else { throw .emptyHistory }
        let n = last.state.count
        w.fit(n)
        result.removeAll(keepingCapacity: true)
        let placeholder = Self.estimate(of: last, state: last.state, covariance: last.covariance)
        for _ in steps.indices { result.append(placeholder) }
        func linked(_ k: Int) -> Bool {
            steps[k].gainState == .ready && !steps[k + 1].startsSegment && steps[k].state.count == n
                && steps[k + 1].state.count == n && steps[k].gainTransposed.size == n
        }
        // The mean, backwards: sˢₖ = sₖ + Xₖᵀ (sˢₖ₊₁ − s⁻ₖ₊₁).
        w.smoothedState.assign(last.state)
        var k = steps.endIndex - 2
        while k >= steps.startIndex {
            let step = steps[k]
            if linked(k) {
                Self.linkMean(step, steps[k + 1], gain: step.gainTransposed, &w)
                swap(&w.smoothedState, &w.linkedState)
            } else if step.state.count == n {
                w.smoothedState.assign(step.state)
            }
            result[k - steps.startIndex] = Self.estimate(of: step, state: w.smoothedState, covariance: step.covariance)
            k -= 1
        }
        // The horizontal covariance block of each step, forwards along its links.
        for k in steps.indices {
            let step = steps[k]
            var xx = step.covariance[0, 0], xy = step.covariance[0, 1], yy = step.covariance[1, 1]
            // G (2 × n) in two rows of the workspace: start at E.
            for c in 0..<n {
                w.column[c] = c == 0 ? 1 : 0
                w.linkedState[c] = c == 1 ? 1 : 0
            }
            var j = k
            while j + 1 < steps.endIndex, linked(j) {
                let x = steps[j].gainTransposed
                // G ← G Cⱼ: (G C)[a][c] = Σᵣ G[a][r] C[r][c] = Σᵣ G[a][r] X[c][r].
                for c in 0..<n {
                    var a0 = 0.0, a1 = 0.0
                    for r in 0..<n {
                        a0 += w.column[r] * x[c, r]
                        a1 += w.linkedState[r] * x[c, r]
                    }
                    w.product[0, c] = a0
                    w.product[1, c] = a1
                }
                for c in 0..<n {
                    w.column[c] = w.product[0, c]
                    w.linkedState[c] = w.product[1, c]
                }
                // + G (Pⱼ₊₁ − P⁻ⱼ₊₁) Gᵀ
                let next = steps[j + 1]
                var d00 = 0.0, d01 = 0.0, d11 = 0.0
                for r in 0..<n {
                    var g0 = 0.0, g1 = 0.0
                    for c in 0..<n {
                        let dc = next.covariance[r, c] - next.predictedCovariance[r, c]
                        g0 += dc * w.column[c]
                        g1 += dc * w.linkedState[c]
                    }
                    d00 += w.column[r] * g0
                    d01 += w.column[r] * g1
                    d11 += w.linkedState[r] * g1
                }
                xx += d00
                xy += d01
                yy += d11
                j += 1
            }
            let index = k - steps.startIndex
            if xx.isFinite, xy.isFinite, yy.isFinite, xx > 0, yy > 0, result[index].position.x.isFinite,
                result[index].position.y.isFinite
            {
                result[index].covarianceXX = xx
                result[index].covarianceXY = xy
                result[index].covarianceYY = yy
            } else {
                result[index] = Self.estimate(of: step, state: step.state, covariance: step.covariance)
            }
        }
    }

    private static func estimate(of step: AugmentedStep, state: [Double], covariance: SquareMatrix) -> TrackEstimate {
        TrackEstimate(
            time: step.time, position: Point2D(x: state[0], y: state[1]),
            velocity: Point2D(x: state[2], y: state[3]),
            covarianceXX: covariance[0, 0], covarianceXY: covariance[0, 1],
            covarianceYY: covariance[1, 1], level: step.level)
    }
}
