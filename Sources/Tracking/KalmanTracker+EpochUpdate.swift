import Foundation
import LinearAlgebra

extension KalmanTracker {
    /// Fuses all RSSI samples of an epoch at once and leaves the state at `time` (the epoch's
    /// end, seconds), each sample at its own timestamp: an iterated (Gauss–Newton) maximum
    /// a-posteriori update that relinearises every sample, which the one-pass EKF of
    /// ``update(_:)-(RSSIMeasurement)`` cannot.
    ///
    /// The state is predicted to `time` (prior x⁻, P⁻). A sample taken τ = time − tᵢ seconds
    /// earlier sees the position (x − τ vx, y − τ vy), so
    ///
    ///     hᵢ(x) = P₀ − 10 n log₁₀ dᵢ,   Hᵢ = (gₓ, g_y, −τ gₓ, −τ g_y),   g = ∂hᵢ/∂(x, y)
    ///     Rᵢ = σ² + |g|² q τ³/3        (the walk between tᵢ and `time`)
    ///
    /// and each Gauss–Newton step solves (Cholesky of the 4 × 4 information matrix)
    ///
    ///     (P⁻⁻¹ + Σ Hᵢᵀ Hᵢ / Rᵢ) δ = P⁻⁻¹ (x⁻ − xⱼ) + Σ Hᵢᵀ (zᵢ − hᵢ(xⱼ)) / Rᵢ,   xⱼ₊₁ = xⱼ + δ
    ///
    /// until the step is below 1 mm (at most ``TrackerConfiguration/rssiIterations`` + 4 steps). The
    /// posterior covariance is the inverse of the information matrix at the solution (from its
    /// Cholesky factor), symmetric positive-definite by construction. Each sample is gated
    /// first against the prior (νᵢ² / Sᵢ, Sᵢ = Hᵢ P⁻ Hᵢᵀ + Rᵢ, a scalar) and the lost-track
    /// detection of the one-sample update applies.
    ///
    /// - Parameter samples: the epoch's samples, times ≤ `time` and not before the state's time.
    /// - Returns: `.accepted` with the mean ν²/S of the fused samples, `.gated` when every sample
    ///   failed the gate (the state is then only predicted), `.reset` after a lost-track reset.
    /// - Throws: the errors of the one-sample update, and `timestampBeforeState` for a sample
    ///   after `time`. On a throw the tracker is unchanged.
    @discardableResult
    public mutating func update(_ samples: [RSSIMeasurement], at time: Double) throws(TrackingError) -> UpdateOutcome {
        try update(samples[...], at: time)
    }

    /// Fuses an epoch's samples given as a slice (for example one epoch of a sorted array);
    /// see ``update(_:at:)-([RSSIMeasurement],_)``.
    @discardableResult
    public mutating func update(
        _ samples: ArraySlice<RSSIMeasurement>, at time: Double
    ) throws(TrackingError) -> UpdateOutcome {
        guard time.isFinite else { throw .nonFiniteInput(field: "time") }
        try TrackingError.checkTime(time, "time")
        for s in samples {
            try s.validate()
            guard s.time >= self.time else { throw .timestampBeforeState(time: s.time, stateTime: self.time) }
            guard s.time <= time else { throw .timestampBeforeState(time: time, stateTime: s.time) }
        }
        var copy = self
        let outcome = try copy.fuseEpoch(samples, at: time)
        self = copy
        return outcome
    }

    private mutating func fuseEpoch(
        _ samples: ArraySlice<RSSIMeasurement>, at time: Double
    ) throws(TrackingError) -> UpdateOutcome {
        try predict(to: time)
        guard !samples.isEmpty else { return .accepted(mahalanobisSquared: 0) }
        let q = configuration.accelerationDensity
        let zr = floorElevation + configuration.receiverHeight
        let gate = configuration.rssiGate

        let scale = noiseScale
        func model(_ s: RSSIMeasurement, _ x: Vector4) -> (h: Double, jacobian: Vector4, r: Double) {
            Self.epochModel(s, x, time: time, receiverZ: zr, density: q, noiseScale: scale)
        }

        // Gate every sample against the prior; keep a bit mask of the accepted ones.
        let prior = state
        let priorP = covariance
        // One flag per sample (the only allocation of this update, once per epoch).
        var accepted = [Bool]()
        accepted.reserveCapacity(samples.count)
        var nisSum = 0.0, used = 0, rejected = 0
        for s in samples {
            let m = model(s, prior)
            let ph = priorP * m.jacobian
            let sVar = (m.jacobian * ph).sum() + m.r
            let nu = s.rssi - m.h
            let nis = nu * nu / sVar
            accepted.append(nis <= gate)
            if nis <= gate {
                monitor.learnNoiseScale(
                    innovation: nu, predictedVariance: sVar - s.model.sigma * s.model.sigma * scale,
                    sigma2: s.model.sigma * s.model.sigma, maximum: configuration.maximumNoiseScale)
            }
            monitor.record(nis: nis)
            if nis <= gate {
                nisSum += nis
                used += 1
            } else {
                rejected += 1
            }
        }
        var outcome = UpdateOutcome.accepted(mahalanobisSquared: used > 0 ? nisSum / Double(used) : 0)
        let inconsistent = monitor.isInconsistent(level: configuration.lostInnovationLevel)
        if used == 0 || inconsistent {
            monitor.rejections += rejected
            if monitor.rejections < configuration.rssiRejectionsBeforeReset && !inconsistent {
                return .gated(mahalanobisSquared: 0, consecutive: monitor.rejections)
            }
            inflateForReset()
            for i in accepted.indices { accepted[i] = true }
            outcome = .reset
        } else {
            monitor.rejections = 0
        }

        // Gauss–Newton on the MAP cost, information form.
        guard let lPrior = covariance.choleskyFactor else { throw .covarianceNotPositiveDefinite }
        let x0 = state
        let priorInfo = Matrix4.inverse(choleskyFactor: lPrior)
        var x = x0
        var lInfo = lPrior
        for _ in 0..<(configuration.rssiIterations + 4) {
            var a = priorInfo
            var b = priorInfo * (x0 - x)
            for (index, s) in zip(accepted.indices, samples) {
                guard accepted[index] else { continue }
                let m = model(s, x)
                a = a + (1 / m.r) * Matrix4.outer(m.jacobian, m.jacobian)
                b += m.jacobian * ((s.rssi - m.h) / m.r)
            }
            guard let l = a.symmetrized.choleskyFactor else { throw .covarianceNotPositiveDefinite }
            lInfo = l
            let step = Matrix4.choleskySolve(l, b)
            x += step
            if step[0] * step[0] + step[1] * step[1] < 1e-6 { break }
        }
        // P = (information at the solution)⁻¹, column by column from its Cholesky factor.
        try commit(x, Matrix4.inverse(choleskyFactor: lInfo))
        return outcome
    }

    /// hᵢ, Hᵢ and Rᵢ of one sample for the epoch update (see ``update(_:at:)-([RSSIMeasurement],_)``).
    @inline(__always)
    static func epochModel(
        _ s: RSSIMeasurement, _ x: Vector4, time: Double, receiverZ: Double,
        density q: Double, noiseScale: Double = 1
    ) -> (h: Double, jacobian: Vector4, r: Double) {
        let tau = time - s.time
        let dx = x[0] - tau * x[2] - s.beaconPosition.x
        let dy = x[1] - tau * x[3] - s.beaconPosition.y
        let dz = receiverZ - s.beaconPosition.z
        let d2 = max(dx * dx + dy * dy + dz * dz, 1e-4)
        let slope = s.model.logSlope
        let gx = -slope * dx / d2, gy = -slope * dy / d2
        let h = s.model.expectedRSSI(squaredDistance: d2)
        let r = s.model.sigma * s.model.sigma * noiseScale + (gx * gx + gy * gy) * q * tau * tau * tau / 3
        return (h, Vector4(gx, gy, -tau * gx, -tau * gy), r)
    }
}
