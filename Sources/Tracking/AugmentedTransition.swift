import LinearAlgebra

/// The prediction step of the ``AugmentedTracker``: s = F s, P = F P Fᵀ + Q with F and Q
/// block-diagonal (motion per axis, the offset's random walk, one Gauss–Markov factor per bias
/// slot).
struct AugmentedTransition: Sendable {
    let motion: MotionModel
    /// The motion modes' models (standing, strolling, walking) and dwell times, or nil for the
    /// single model `motion`.
    var modes: (models: (MotionModel, MotionModel, MotionModel), dwellTimes: (Double, Double, Double))? = nil
    /// The mode probabilities at the state's time.
    var probabilities = ModeProbabilities(standing: 1, strolling: 1, walking: 1)
    /// The phone's activity over the interval, if it said: weighs the Markov-predicted mode
    /// probabilities with ``ActivityHint/likelihood`` (Bayes' rule).
    var activity: ActivityHint? = nil
    /// The offset's random-walk density, dB²/s (0 when the offset is fixed).
    let offsetDrift: Double
    /// Bias correlation time, seconds.
    let correlationTime: Double
    /// The position-variance cap of the coast limit, m².
    let maximumPositionVariance: Double
    /// The velocity variance after the coast limit, m²/s².
    let restingVelocityVariance: Double

    /// Predicts `x` and `p` over `dt` seconds; the bias slots marked in `renew` start afresh
    /// (factor 0, variance their stationary λsσ²). Returns whether the coast limit was reached
    /// (velocity zeroed, kinematic covariance reset).
    func propagate(
        _ x: inout [Double], _ p: inout SquareMatrix, dt: Double, renew: [Bool],
        slots: BiasSlots, noiseScale: Double
    ) -> Bool {
        let k = step(dt)
        let (fpv, fvv) = (k.positionVelocity, k.velocity)
        let (qpp, qpv, qvv) = k.noise
        // The velocity's second moment before the step, for the modes' spread (MotionModeMixing).
        let mxx = p[2, 2] + x[2] * x[2], mxy = p[2, 3] + x[2] * x[3], myy = p[3, 3] + x[3] * x[3]
        let rho = ShadowingModel.correlation(over: dt, time: correlationTime)
        let n = p.size
        let b0 = AugmentedTracker.biasIndex
        x[0] += fpv * x[2]
        x[1] += fpv * x[3]
        x[2] *= fvv
        x[3] *= fvv
        for j in renew.indices { x[b0 + j] *= renew[j] ? 0 : rho }
        // P ← F P (rows), then P ← P Fᵀ (columns).
        for c in 0..<n {
            p[0, c] += fpv * p[2, c]
            p[1, c] += fpv * p[3, c]
            p[2, c] *= fvv
            p[3, c] *= fvv
            for j in renew.indices { p[b0 + j, c] *= renew[j] ? 0 : rho }
        }
        for r in 0..<n {
            p[r, 0] += fpv * p[r, 2]
            p[r, 1] += fpv * p[r, 3]
            p[r, 2] *= fvv
            p[r, 3] *= fvv
            for j in renew.indices { p[r, b0 + j] *= renew[j] ? 0 : rho }
        }
        p[0, 0] += qpp
        p[1, 1] += qpp
        p[0, 2] += qpv
        p[2, 0] += qpv
        p[1, 3] += qpv
        p[3, 1] += qpv
        p[2, 2] += qvv
        p[3, 3] += qvv
        if modes != nil { addSpread(k.spread, mxx, mxy, myy, &p) }
        p[AugmentedTracker.offsetIndex, AugmentedTracker.offsetIndex] += offsetDrift * dt
        for j in renew.indices {
            let f = renew[j] ? 0 : rho
            let stationary = slots.key[j] < 0 ? AugmentedTracker.freeSlotVariance : slots.variance[j] * noiseScale
            p[b0 + j, b0 + j] += stationary * (1 - f * f)
        }
        p.symmetrize()
        let cap = maximumPositionVariance
        guard p[0, 0] > cap || p[1, 1] > cap else { return false }
        x[2] = 0
        x[3] = 0
        p.resetKinematics(variances: (cap, cap, restingVelocityVariance, restingVelocityVariance))
        return true
    }
}

extension AugmentedTransition {
    /// The mode probabilities dt seconds after the state's time (unchanged without modes).
    func predictedProbabilities(over dt: Double) -> ModeProbabilities {
        guard let modes else { return probabilities }
        let predicted = probabilities.predicted(over: dt, dwellTimes: modes.dwellTimes)
        guard let activity else { return predicted }
        return predicted.weighted(by: activity.likelihood)
    }

    /// The kinematic step over dt seconds: the single model's, or the modes' mixture weighted by
    /// the predicted mode probabilities.
    func step(_ dt: Double) -> KinematicStep {
        guard let modes else { return KinematicStep(motion, dt: dt) }
        return KinematicStep(modes.models, weights: predictedProbabilities(over: dt), dt: dt)
    }

    /// P += [[var a, cov ab], [cov ab, var b]] ⊗ M with M the velocity's second moment (see
    /// ``KinematicStep``).
    private func addSpread(
        _ s: (Double, Double, Double), _ mxx: Double, _ mxy: Double, _ myy: Double,
        _ p: inout SquareMatrix
    ) {
        for i in 0..<2 {
            for j in 0..<2 {
                let v = i == j ? (i == 0 ? mxx : myy) : mxy
                p[i, j] += s.0 * v
                p[i, 2 + j] += s.1 * v
                p[2 + j, i] += s.1 * v
                p[2 + i, 2 + j] += s.2 * v
            }
        }
    }
}

extension SquareMatrix {
    /// Sets the leading 4 × 4 (position and velocity) block to a diagonal and its
    /// cross-covariances with every other state to zero: what a reset knows.
    mutating func resetKinematics(variances: (Double, Double, Double, Double)) {
        for i in 0..<4 {
            for c in 0..<size {
                self[i, c] = 0
                self[c, i] = 0
            }
        }
        self[0, 0] = variances.0
        self[1, 1] = variances.1
        self[2, 2] = variances.2
        self[3, 3] = variances.3
    }
}
