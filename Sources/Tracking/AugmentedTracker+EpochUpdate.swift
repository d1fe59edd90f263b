import BeaconModel
import Foundation
import LinearAlgebra

extension AugmentedTracker {
    /// Fuses all RSSI samples of an epoch and leaves the state at `time` (the epoch's end,
    /// seconds), each sample at its own timestamp.
    ///
    /// The state is predicted to `time` (prior s⁻, P⁻; beacons heard for the first time, or
    /// again after giving their slot up, get a fresh bias state). A sample taken τ = time − tᵢ
    /// earlier sees the position (x − τ vx, y − τ vy) and the bias e^{τ/τ_b}-correlated with
    /// its value at `time`, so with g = ∂h/∂(x, y) and ρ = e^{−τ/τ_b}
    ///
    ///     hᵢ(s) = P₀ − 10 n log₁₀ dᵢ + Δ + ρ bⱼ
    ///     Hᵢ    = (gₓ, g_y, −τ gₓ, −τ g_y, 1, ρ at bⱼ)
    ///     Rᵢ    = λ(1 − s)σ² + λ s σ² (1 − ρ²) + |g|² q τ³/3
    ///
    /// (a beacon without a slot: no bⱼ term and Rᵢ = λσ² + |g|² q τ³/3; Δ's entry is 0 when the
    /// offset is fixed). Each Gauss–Newton step solves, with the Cholesky factor of the n × n
    /// information matrix,
    ///
    ///     (P⁻⁻¹ + Σ Hᵢᵀ Hᵢ / Rᵢ) δ = P⁻⁻¹ (s⁻ − sₖ) + Σ Hᵢᵀ (zᵢ − hᵢ(sₖ)) / Rᵢ,   sₖ₊₁ = sₖ + δ
    ///
    /// until the position step is below 1 mm (at most ``TrackerConfiguration/rssiIterations``
    /// + 4 steps); the posterior covariance is the inverse of the information matrix at the
    /// solution. Gating (νᵢ²/Sᵢ against the 1-degree-of-freedom gate, Sᵢ = Hᵢ P⁻ Hᵢᵀ + Rᵢ), the
    /// learned noise scale λ and the lost-track reset work as in ``KalmanTracker``.
    ///
    /// - Parameter samples: the epoch's samples, times ≤ `time` and not before the state's time;
    ///   ``RSSIMeasurement/beaconKey`` names the beacon for its bias state.
    /// - Returns: `.accepted` with the mean ν²/S of the fused samples, `.gated` when every sample
    ///   failed the gate (the state is then only predicted), `.reset` after a lost-track reset.
    /// - Throws: `nonFiniteInput`, `implausibleRSSI`, `invalidPathLossModel`,
    ///   `timestampBeforeState`, `covarianceNotPositiveDefinite`. On a throw the tracker is
    ///   unchanged.
    @discardableResult
    public mutating func update(
        _ samples: ArraySlice<RSSIMeasurement>, at time: Double
    ) throws(TrackingError) -> UpdateOutcome {
        try check(samples, at: time)
        return try fuse(samples, at: time)
    }

    /// The checks of ``update(_:at:)-(ArraySlice<RSSIMeasurement>,_)``: every value finite and
    /// in range (unless `values` is false: checked already), every time between the state's
    /// time and `time`.
    func check(_ samples: ArraySlice<RSSIMeasurement>, at time: Double, values: Bool = true) throws(TrackingError) {
        guard time.isFinite else { throw .nonFiniteInput(field: "time") }
        try TrackingError.checkTime(time, "time")
        guard time >= self.time else { throw .timestampBeforeState(time: time, stateTime: self.time) }
        for s in samples {
            if values { try s.validate() }
            guard s.time >= self.time else { throw .timestampBeforeState(time: s.time, stateTime: self.time) }
            guard s.time <= time else { throw .timestampBeforeState(time: time, stateTime: s.time) }
        }
    }

    /// ``update(_:at:)-(ArraySlice<RSSIMeasurement>,_)`` for samples whose values passed
    /// ``check(_:at:values:)`` on another tracker (a ``TrackerBank`` checks them once, on its
    /// first member, for all its members); only the times are checked against this tracker's.
    mutating func update(
        checked samples: ArraySlice<RSSIMeasurement>, at time: Double
    ) throws(TrackingError)
        -> UpdateOutcome
    {
        try check(samples, at: time, values: false)
        return try fuse(samples, at: time)
    }

    /// Fuses an epoch's samples given as an array; see ``update(_:at:)-(ArraySlice<RSSIMeasurement>,_)``.
    @discardableResult
    public mutating func update(_ samples: [RSSIMeasurement], at time: Double) throws(TrackingError) -> UpdateOutcome {
        try update(samples[...], at: time)
    }

    private mutating func fuse(
        _ samples: ArraySlice<RSSIMeasurement>, at time: Double
    ) throws(TrackingError) -> UpdateOutcome {
        prepareScratch()
        let dt = time - self.time
        let share = shadowing.correlatedShare
        let lambda = monitor.noiseScale

        // Bias slots for this epoch's beacons (on a copy: committed only on success).
        scratch.slots.assign(slots)
        for j in scratch.renew.indices { scratch.renew[j] = false }
        scratch.sampleSlot.removeAll(keepingCapacity: true)
        scratch.sampleCorrelation.removeAll(keepingCapacity: true)
        for s in samples {
            var slot = -1
            if let key = s.beaconKey, scratch.slots.count > 0,
                let j = scratch.slots.slot(
                    for: key, at: s.time, variance: share * s.model.sigma * s.model.sigma,
                    notSince: self.time, renew: &scratch.renew)
            {
                slot = Self.biasIndex + j
            }
            scratch.sampleSlot.append(slot)
            // ρᵢ = e^{−τᵢ/τ_b}, once per sample and epoch.
            scratch.sampleCorrelation.append(slot >= 0 ? shadowing.correlation(over: time - s.time) : 0)
        }

        // Prior.
        let transition = self.transition
        let limits = self.limits
        // The previous posterior's kinematics, for the motion modes' evidence.
        let evidence = transition.modes == nil ? nil : ModeEvidence(state: state, covariance: covariance)
        var modes = transition.predictedProbabilities(over: dt)
        scratch.xPrior.assign(state)
        scratch.pPrior.assign(covariance)
        var startsSegment = transition.propagate(
            &scratch.xPrior, &scratch.pPrior, dt: dt, renew: scratch.renew,
            slots: scratch.slots, noiseScale: lambda)
        let step = transition.step(dt)
        scratch.coefficients = (step.positionVelocity, step.velocity)
        limits.constrain(&scratch.xPrior, from: Point2D(x: state[0], y: state[1]))

        // Gate every sample against the prior.
        var monitor = self.monitor
        let measurement = SampleModel(
            time: time, receiverZ: floorElevation + configuration.receiverHeight,
            density: configuration.accelerationDensity, share: share,
            estimatesOffset: offsetModel.isEstimated)
        scratch.accepted.removeAll(keepingCapacity: true)
        scratch.rows.removeAll(keepingCapacity: true)
        var nisSum = 0.0, used = 0, rejected = 0
        // The epoch's log-evidence log p(z | earlier samples): gated samples count as if they
        // sat on the gate (a robust, model-independent treatment of outliers); Σ log 2πRᵢ of the
        // fused samples is taken at the prior.
        var logEvidence = 0.0
        for (k, s) in samples.enumerated() {
            let row = measurement.row(
                s, scratch.xPrior, slot: scratch.sampleSlot[k],
                correlation: scratch.sampleCorrelation[k], noiseScale: lambda)
            scratch.rows.append(row)
            let innovationVariance = row.quadratic(scratch.pPrior) + row.r
            let nu = s.rssi - row.h
            let nis = nu * nu / innovationVariance
            let passes = nis <= rssiGate
            scratch.accepted.append(passes)
            if passes {
                monitor.learnNoiseScale(
                    innovation: nu, predictedVariance: innovationVariance - row.scaledR,
                    sigma2: row.scaledR / lambda, maximum: configuration.maximumNoiseScale)
                nisSum += nis
                used += 1
                logEvidence -= 0.5 * Foundation.log(2 * Double.pi * row.r)
            } else {
                rejected += 1
                logEvidence -= 0.5 * (rssiGate + Foundation.log(2 * Double.pi * innovationVariance))
            }
            monitor.record(nis: nis)
        }
        var outcome = UpdateOutcome.accepted(mahalanobisSquared: used > 0 ? nisSum / Double(used) : 0)
        let inconsistent = monitor.isInconsistent(level: configuration.lostInnovationLevel)
        if used == 0 || inconsistent {
            monitor.rejections += rejected
            if monitor.rejections < configuration.rssiRejectionsBeforeReset && !inconsistent {
                // Nothing to fuse: the state is only predicted.
                commit(
                    prior: true, time: time, interval: dt, startsSegment: startsSegment, monitor: monitor,
                    logEvidence: logEvidence, modes: modes)
                return .gated(mahalanobisSquared: 0, consecutive: monitor.rejections)
            }
            // Lost: widen the position uncertainty, forget the velocity, then fuse every sample.
            let v0 = configuration.initialVelocitySigma * configuration.initialVelocitySigma
            let rv = configuration.resetPositionVariance
            let kept = (max(scratch.pPrior[0, 0], rv), max(scratch.pPrior[1, 1], rv))
            scratch.xPrior[2] = 0
            scratch.xPrior[3] = 0
            scratch.pPrior.resetKinematics(variances: (kept.0, kept.1, v0, v0))
            for i in scratch.accepted.indices { scratch.accepted[i] = true }
            // Every sample is fused from the new prior: rows and Σ log 2πRᵢ anew.
            logEvidence = 0
            for (k, s) in samples.enumerated() {
                scratch.rows[k] = measurement.row(
                    s, scratch.xPrior, slot: scratch.sampleSlot[k],
                    correlation: scratch.sampleCorrelation[k], noiseScale: lambda)
                logEvidence -= 0.5 * Foundation.log(2 * Double.pi * scratch.rows[k].r)
            }
            monitor.restart()
            outcome = .reset
            startsSegment = true
        } else {
            monitor.rejections = 0
        }

        // Gauss–Newton on the MAP cost, information form.
        scratch.info.assign(scratch.pPrior)
        guard scratch.info.factorCholesky() else { throw .covarianceNotPositiveDefinite }
        let logDetPrior = scratch.info.logDeterminantOfFactored
        scratch.info.invertFactored(into: &scratch.priorInfo)
        scratch.xPost.assign(scratch.xPrior)
        let n = state.count
        // The MAP cost J at the last linearisation point (for the evidence).
        var cost = 0.0
        for iteration in 0..<(configuration.rssiIterations + 4) {
            scratch.info.assign(scratch.priorInfo)
            cost = 0
            for i in 0..<n {
                var sum = 0.0
                for c in 0..<n { sum += scratch.priorInfo[i, c] * (scratch.xPrior[c] - scratch.xPost[c]) }
                scratch.rhs[i] = sum
                cost += (scratch.xPrior[i] - scratch.xPost[i]) * sum
            }
            // The block of x, y, vx, vy and Δ, which every sample adds to, is summed in local
            // variables (the same additions in the same order) and written back once.
            var block = KinematicBlock(info: scratch.info, rhs: scratch.rhs)
            for (k, s) in samples.enumerated() where scratch.accepted[k] {
                // The first iteration linearises at the prior, where the rows are known already.
                let row =
                    iteration == 0
                    ? scratch.rows[k]
                    : measurement.row(
                        s, scratch.xPost, slot: scratch.sampleSlot[k],
                        correlation: scratch.sampleCorrelation[k], noiseScale: lambda)
                let residual = s.rssi - row.h
                row.accumulate(into: &block, &scratch.info, &scratch.rhs, residual: residual)
                cost += residual * residual / row.r
            }
            block.store(into: &scratch.info, &scratch.rhs)
            guard scratch.info.factorCholesky() else { throw .covarianceNotPositiveDefinite }
            scratch.info.solveFactored(&scratch.rhs)
            for i in 0..<n { scratch.xPost[i] += scratch.rhs[i] }
            if scratch.rhs[0] * scratch.rhs[0] + scratch.rhs[1] * scratch.rhs[1] < 1e-6 { break }
        }
        scratch.info.invertFactored(into: &scratch.pPost)
        // A step that leaves the finite numbers, or sends the position beyond the plan's
        // coordinate limit (a diverging Gauss–Newton run on absurd models), is a numerical
        // failure: the tracker stays as it was.
        guard scratch.pPost.isFinite, scratch.xPost.allSatisfy(\.isFinite),
            abs(scratch.xPost[0]) <= FloorPlan.coordinateLimit, abs(scratch.xPost[1]) <= FloorPlan.coordinateLimit
        else { throw .covarianceNotPositiveDefinite }
        // Laplace (exact for the linearised model): log p(z) = −½ J* − ½ Σ log 2πRᵢ
        //   − ½ log det P⁻ − ½ log det A, with J* the MAP cost and A the information at the last
        //   linearisation point (the final step is below 1 mm, or the iterations ran out).
        logEvidence -= 0.5 * (cost + logDetPrior + scratch.info.logDeterminantOfFactored)
        if let evidence, let m = transition.modes, outcome != .reset {
            modes = modes.weighted(
                by: evidence.likelihoods(
                    models: m.models, dt: dt, prior: scratch.xPrior, priorCovariance: scratch.pPrior,
                    posterior: scratch.xPost, posteriorCovariance: scratch.pPost))
        }
        commit(
            prior: false, time: time, interval: dt, startsSegment: startsSegment, monitor: monitor,
            logEvidence: logEvidence, modes: modes)
        return outcome
    }

    /// Takes the epoch's result (the prior alone when `prior`), the slots, the monitor and the
    /// mode probabilities, and records the step.
    private mutating func commit(
        prior: Bool, time: Double, interval: Double, startsSegment: Bool,
        monitor: InnovationMonitor, logEvidence: Double, modes: ModeProbabilities
    ) {
        lastLogEvidence = logEvidence.isFinite ? logEvidence : -Double.greatestFiniteMagnitude
        modeProbabilities = modes
        stepCoefficients = scratch.coefficients
        if prior {
            state.assign(scratch.xPrior)
            covariance.assign(scratch.pPrior)
        } else {
            let before = Point2D(x: state[0], y: state[1])
            swap(&state, &scratch.xPost)
            swap(&covariance, &scratch.pPost)
            limits.constrain(&state, from: before)
        }
        slots.assign(scratch.slots)
        self.monitor = monitor
        self.time = time
        if configuration.recordsHistory {
            recordStep(
                interval: interval, renew: scratch.renew, predictedState: scratch.xPrior,
                predictedCovariance: scratch.pPrior, startsSegment: startsSegment)
        }
    }
}

extension Array where Element == Double {
    /// Copies `other` (same count) without allocating.
    mutating func assign(_ other: [Double]) {
        for i in indices { self[i] = other[i] }
    }
}

/// hᵢ, Hᵢ and Rᵢ of the samples of one epoch (see ``AugmentedTracker/update(_:at:)-(ArraySlice<RSSIMeasurement>,_)``).
struct SampleModel {
    /// The epoch's end, seconds.
    let time: Double
    /// Receiver elevation, metres.
    let receiverZ: Double
    /// Acceleration density q, m²/s³.
    let density: Double
    /// Correlated share s of σ².
    let share: Double
    /// Whether Δ is a state (else its Jacobian entry is 0).
    let estimatesOffset: Bool

    /// The row of sample `s` at state `x`; `slot` is the state index of its bias (−1: none) and
    /// `rho` its correlation e^{−τ/τ_b} with the bias at the epoch's end.
    @inline(__always)
    func row(_ s: RSSIMeasurement, _ x: [Double], slot: Int, correlation rho: Double, noiseScale: Double) -> SampleRow {
        let tau = time - s.time
        let dx = x[0] - tau * x[2] - s.beaconPosition.x
        let dy = x[1] - tau * x[3] - s.beaconPosition.y
        let dz = receiverZ - s.beaconPosition.z
        let d2 = max(dx * dx + dy * dy + dz * dz, 1e-4)
        let slope = s.model.logSlope
        let gx = -slope * dx / d2, gy = -slope * dy / d2
        let sigma2 = s.model.sigma * s.model.sigma
        var h = s.model.expectedRSSI(squaredDistance: d2) + x[AugmentedTracker.offsetIndex]
        var scaled = sigma2
        if slot >= 0 {
            h += rho * x[slot]
            scaled = sigma2 * (1 - share * rho * rho)
        }
        let motion = (gx * gx + gy * gy) * density * tau * tau * tau / 3
        return SampleRow(
            h: h, gx: gx, gy: gy, tau: tau, offset: estimatesOffset ? 1 : 0, slot: slot,
            bias: rho, r: noiseScale * scaled + motion, scaledR: noiseScale * scaled)
    }
}

/// One sample's expected RSSI h, its sparse Jacobian row H (entries at x, y, vx, vy, Δ and its
/// bias slot) and its noise variance R.
struct SampleRow {
    var h: Double
    var gx: Double
    var gy: Double
    var tau: Double
    var offset: Double
    var slot: Int
    var bias: Double
    /// R, dB².
    var r: Double
    /// The part of R proportional to the noise scale λ.
    var scaledR: Double

    /// The entries at x, y, vx, vy and Δ (state indices 0…4).
    @inline(__always)
    var kinematic: (Double, Double, Double, Double, Double) { (gx, gy, -tau * gx, -tau * gy, offset) }

    /// H P Hᵀ for a symmetric P (entries are in increasing state order, so one triangle does):
    /// Σₐ 2 uₐ (½ uₐ P_aa + Σ_{b<a} u_b P_ab) over the row's entries u, written out for the five
    /// kinematic entries (x, y, vx, vy, Δ at state indices 0…4) and the bias slot.
    @inline(__always)
    func quadratic(_ p: SquareMatrix) -> Double {
        let e = kinematic
        var sum = 2 * e.0 * (0.5 * e.0 * p[0, 0])
        sum += 2 * e.1 * (0.5 * e.1 * p[1, 1] + e.0 * p[1, 0])
        sum += 2 * e.2 * (0.5 * e.2 * p[2, 2] + e.0 * p[2, 0] + e.1 * p[2, 1])
        sum += 2 * e.3 * (0.5 * e.3 * p[3, 3] + e.0 * p[3, 0] + e.1 * p[3, 1] + e.2 * p[3, 2])
        sum += 2 * e.4 * (0.5 * e.4 * p[4, 4] + e.0 * p[4, 0] + e.1 * p[4, 1] + e.2 * p[4, 2] + e.3 * p[4, 3])
        guard slot >= 0 else { return sum }
        let s = slot
        sum +=
            2 * bias
            * (0.5 * bias * p[s, s] + e.0 * p[s, 0] + e.1 * p[s, 1] + e.2 * p[s, 2] + e.3 * p[s, 3] + e.4 * p[s, 4])
        return sum
    }

    /// info += Hᵀ H / R (its lower triangle, the part the Cholesky factorisation reads) and
    /// rhs += Hᵀ residual / R: the entries of x, y, vx, vy and Δ into `block`, the bias slot's
    /// row into `info` and `rhs`.
    @inline(__always)
    func accumulate(
        into block: inout KinematicBlock, _ info: inout SquareMatrix, _ rhs: inout [Double], residual: Double
    ) {
        let w = 1 / r
        let e = kinematic
        block.add(e, weight: w, residual: residual)
        guard slot >= 0 else { return }
        let uw = bias * w
        rhs[slot] += uw * residual
        info[slot, 0] += uw * e.0
        info[slot, 1] += uw * e.1
        info[slot, 2] += uw * e.2
        info[slot, 3] += uw * e.3
        info[slot, AugmentedTracker.offsetIndex] += uw * e.4
        info[slot, slot] += uw * bias
    }
}

/// The lower triangle of the information matrix's block of x, y, vx, vy and Δ (state indices
/// 0…4) and those entries of the right-hand side, held in local variables while an epoch's
/// samples are added: every sample adds to all of them, and writing them through the matrix
/// checked the matrix's storage for each of the 20 additions.
struct KinematicBlock {
    /// Row-major lower triangle: (0,0); (1,0) (1,1); (2,0) (2,1) (2,2); …
    private var cells:
        (
            Double, Double, Double, Double, Double, Double, Double, Double, Double, Double,
            Double, Double, Double, Double, Double
        )
    private var rhs: (Double, Double, Double, Double, Double)

    /// The block as it stands in `info` and `rhs`.
    init(info: SquareMatrix, rhs: [Double]) {
        cells = (
            info[0, 0], info[1, 0], info[1, 1], info[2, 0], info[2, 1], info[2, 2], info[3, 0], info[3, 1],
            info[3, 2], info[3, 3], info[4, 0], info[4, 1], info[4, 2], info[4, 3], info[4, 4]
        )
        self.rhs = (rhs[0], rhs[1], rhs[2], rhs[3], rhs[4])
    }

    /// Adds eᵀe·w to the cells and e·w·residual to the right-hand side (each product as
    /// `SampleRow` forms it: (eₐ·w)·e_b).
    @inline(__always)
    mutating func add(_ e: (Double, Double, Double, Double, Double), weight w: Double, residual: Double) {
        let u0 = e.0 * w, u1 = e.1 * w, u2 = e.2 * w, u3 = e.3 * w, u4 = e.4 * w
        rhs.0 += u0 * residual
        cells.0 += u0 * e.0
        rhs.1 += u1 * residual
        cells.1 += u1 * e.0
        cells.2 += u1 * e.1
        rhs.2 += u2 * residual
        cells.3 += u2 * e.0
        cells.4 += u2 * e.1
        cells.5 += u2 * e.2
        rhs.3 += u3 * residual
        cells.6 += u3 * e.0
        cells.7 += u3 * e.1
        cells.8 += u3 * e.2
        cells.9 += u3 * e.3
        rhs.4 += u4 * residual
        cells.10 += u4 * e.0
        cells.11 += u4 * e.1
        cells.12 += u4 * e.2
        cells.13 += u4 * e.3
        cells.14 += u4 * e.4
    }

    /// Writes the block back.
    func store(into info: inout SquareMatrix, _ rhs: inout [Double]) {
        info[0, 0] = cells.0
        info[1, 0] = cells.1
        info[1, 1] = cells.2
        info[2, 0] = cells.3
        info[2, 1] = cells.4
        info[2, 2] = cells.5
        info[3, 0] = cells.6
        info[3, 1] = cells.7
        info[3, 2] = cells.8
        info[3, 3] = cells.9
        info[4, 0] = cells.10
        info[4, 1] = cells.11
        info[4, 2] = cells.12
        info[4, 3] = cells.13
        info[4, 4] = cells.14
        rhs[0] = self.rhs.0
        rhs[1] = self.rhs.1
        rhs[2] = self.rhs.2
        rhs[3] = self.rhs.3
        rhs[4] = self.rhs.4
    }
}
