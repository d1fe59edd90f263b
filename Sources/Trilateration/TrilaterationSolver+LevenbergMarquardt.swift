import Foundation
import LinearAlgebra

/// The result of one Levenberg–Marquardt run.
struct LevenbergMarquardtRun {
    /// Coordinates of the solution in the subspace.
    var theta: SIMD3<Double>
    /// Weighted residual sum Σ wᵢ rᵢ² at the solution (χ²-distributed under the model).
    var cost: Double
    /// JᵀWJ at the solution: the Fisher information of the estimator.
    var fisher: SmallSymmetricMatrix
    var iterations: Int
    var converged: Bool
    /// The common offset at the solution, dB (0 when none is estimated).
    var commonOffset = 0.0
    /// Its variance with the position also unknown, dB² (0 when none is estimated).
    var offsetVariance = 0.0
}

/// Cost, gradient and curvature at one point.
struct Evaluation {
    /// Σ wᵢ rᵢ².
    var cost: Double
    /// JᵀWJ (the Gauss–Newton Hessian and the Fisher information).
    var normal: SmallSymmetricMatrix
    /// JᵀW r.
    var gradient: SIMD3<Double>
    /// Σ wᵢ rᵢ ∇²rᵢ: the second-order part of the Hessian of ½ Σ wᵢ rᵢ².
    var curvature: SmallSymmetricMatrix
    /// The common offset Δ̂(p) profiled out at this point, dB (0 when none is estimated).
    var commonOffset = 0.0
    /// c = Σ wᵢ + 1/τ², dB⁻² (0 when no common offset is estimated).
    var offsetPrecision = 0.0
    /// Σ wᵢ ∂rᵢ/∂θ, for the offset's variance (zero when none is estimated).
    var offsetCoupling = SIMD3<Double>.zero
}

extension TrilaterationSolver {
    // MARK: Residuals

    /// Residuals and Jacobian rows at θ for the active beacons, into slot `slot`; returns the
    /// weighted cost Σ wᵢ rᵢ², the normal matrix JᵀWJ and the gradient JᵀW r.
    ///
    /// Maximum likelihood: rᵢ = RSSI̅ᵢ − P₀ᵢ + kᵢ ln dᵢ, ∂rᵢ/∂p = kᵢ (p − bᵢ)/dᵢ², wᵢ = mᵢ/σᵢ².
    /// Range least squares: rᵢ = d̂ᵢ − dᵢ, ∂rᵢ/∂p = −(p − bᵢ)/dᵢ, wᵢ = 1/σ_dᵢ².
    /// Distances below 1 cm are clamped to 1 cm, as in the path-loss model.
    ///
    /// With a common offset (``Configuration/commonOffsetSigma`` τ, maximum likelihood only)
    /// the cost is Σ wᵢ (rᵢ − Δ)² + Δ²/τ² minimised over Δ in closed form (the profile
    /// likelihood): Δ̂ = Σ wᵢ rᵢ / c with c = Σ wᵢ + 1/τ², cost Σ wᵢ rᵢ² − c Δ̂², gradient
    /// Σ wᵢ (rᵢ − Δ̂) aᵢ, Gauss–Newton matrix Σ wᵢ aᵢ aᵢᵀ − (Σ wᵢ aᵢ)(Σ wᵢ aᵢ)ᵀ/c (the Schur
    /// complement: the Fisher information of the position with Δ a nuisance), curvature
    /// Σ wᵢ (rᵢ − Δ̂) ∇²rᵢ; the stored residuals are rᵢ − Δ̂.
    @inline(__always)
    mutating func evaluate(_ sub: Subspace, at theta: SIMD3<Double>, slot: Int) -> Evaluation {
        let p = sub.point(theta)
        let offset = slot * workspace.terms.count
        let order = sub.order
        let likelihood = configuration.estimator == .maximumLikelihood
        var cost = 0.0
        var normal = SmallSymmetricMatrix(order: order)
        var gradient = SIMD3<Double>.zero
        var curvature = SmallSymmetricMatrix(order: order)
        var diagonal = 0.0
        // The common offset's sums: Σ w, Σ w a, and the curvature with every rᵢ set to 1.
        let profiles = likelihood && workspace.offsetPriorPrecision > 0
        var weightSum = 0.0, weightedResidual = 0.0
        var coupling = SIMD3<Double>.zero
        var unitCurvature = SmallSymmetricMatrix(order: order)
        var unitDiagonal = 0.0
        workspace.terms.withUnsafeBufferPointer { terms in
            workspace.active.withUnsafeBufferPointer { active in
                workspace.residual.withUnsafeMutableBufferPointer { residual in
                    workspace.jacobian.withUnsafeMutableBufferPointer { jacobian in
                        for j in 0..<active.count {
                            let term = terms[active[j]]
                            let delta = p - term.position
                            let d2 = max((delta * delta).sum(), 1e-4)
                            let r: Double, w: Double, a: SIMD3<Double>
                            if likelihood {
                                let k = term.slope
                                r = term.offset + k * 0.5 * Foundation.log(d2)
                                w = term.weight
                                a = sub.project((k / d2) * delta)
                                // Σ wᵢ rᵢ ∇²rᵢ, ∇²rᵢ = k (I/d² − 2 ΔΔᵀ/d⁴) = k/d² I − (2/k) aaᵀ.
                                diagonal += w * r * k / d2
                                curvature.addOuter(a, weight: -2 * w * r / k)
                                if profiles {
                                    weightSum += w
                                    weightedResidual += w * r
                                    coupling += w * a
                                    unitDiagonal += w * k / d2
                                    unitCurvature.addOuter(a, weight: -2 * w / k)
                                }
                            } else {
                                let d = d2.squareRoot()
                                r = term.range - d
                                w = term.rangeWeight
                                a = sub.project((-1 / d) * delta)
                                // ∇²rᵢ = −(I/d − ΔΔᵀ/d³) = −I/d + aaᵀ/d.
                                diagonal -= w * r / d
                                curvature.addOuter(a, weight: w * r / d)
                            }
                            residual[offset + j] = r
                            jacobian[offset + j] = a
                            cost += w * r * r
                            normal.addOuter(a, weight: w)
                            gradient += (w * r) * a
                        }
                    }
                }
            }
        }
        if workspace.priorWeight > 0 {
            // The centroid prior: w (p − c) in the horizontal plane, linear in p.
            let w = workspace.priorWeight
            let miss = p - workspace.priorCentre
            for axis in 0..<2 {
                let unit = axis == 0 ? SIMD3<Double>(1, 0, 0) : SIMD3<Double>(0, 1, 0)
                let a = sub.project(unit)
                let r = miss[axis]
                cost += w * r * r
                normal.addOuter(a, weight: w)
                gradient += (w * r) * a
            }
        }
        guard profiles else {
            curvature.addDiagonal(diagonal)
            return Evaluation(cost: cost, normal: normal, gradient: gradient, curvature: curvature)
        }
        let c = weightSum + workspace.offsetPriorPrecision
        let delta = weightedResidual / c
        for j in 0..<workspace.active.count { workspace.residual[offset + j] -= delta }
        cost -= c * delta * delta
        gradient -= delta * coupling
        normal.addOuter(coupling, weight: -1 / c)
        curvature.addDiagonal(diagonal - delta * unitDiagonal)
        unitCurvature.scale(by: -delta)
        curvature.add(unitCurvature)
        return Evaluation(
            cost: max(cost, 0), normal: normal, gradient: gradient, curvature: curvature, commonOffset: delta,
            offsetPrecision: c, offsetCoupling: coupling)
    }

    /// The variance of the profiled common offset with the position unknown too: with F the
    /// (Schur-complement) information of the position and u = Σ wᵢ aᵢ, the block inverse of
    /// the joint information gives 1/c + uᵀ F⁻¹ u / c². 0 when no offset is estimated.
    static func offsetVariance(_ point: Evaluation) -> Double {
        guard point.offsetPrecision > 0 else { return 0 }
        let c = point.offsetPrecision
        let u = point.offsetCoupling
        guard let inverse = point.normal.inverse() else { return 1 / c }
        var quadratic = 0.0
        for i in 0..<point.normal.order {
            for j in 0..<point.normal.order { quadratic += u[i] * inverse[i, j] * u[j] }
        }
        return 1 / c + max(quadratic, 0) / (c * c)
    }

    /// Weight of beacon i under the configured estimator.
    @inline(__always)
    func weight(_ i: Int) -> Double {
        configuration.estimator == .maximumLikelihood ? workspace.terms[i].weight : workspace.terms[i].rangeWeight
    }

    // MARK: Levenberg–Marquardt

    /// Minimises Σ wᵢ rᵢ² from θ₀ with uniform damping: (JᵀWJ + μ I) δ = −JᵀW r,
    /// μ = λ trace(JᵀWJ)/q; λ shrinks ×0.3 on an accepted step and grows ×4 on a rejected one.
    mutating func levenbergMarquardt(_ sub: Subspace, from start: SIMD3<Double>) -> LevenbergMarquardtRun {
        let q = sub.order
        var theta = start
        var current = evaluate(sub, at: theta, slot: workspace.currentSlot)
        var lambda = configuration.initialDamping
        var iterations = 0
        var converged = false
        let tolerance = configuration.stepTolerance
        while iterations < configuration.maximumIterations {
            iterations += 1
            let mu = lambda * max(current.normal.trace / Double(q), 1e-300)
            guard let step = solveStep(sub, at: current, mu: mu) else {
                lambda *= 10
                if lambda > 1e16 { break }
                continue
            }
            let length = (step * step).sum().squareRoot()
            let trialTheta = theta + step
            let trialSlot = 1 - workspace.currentSlot
            let trial = evaluate(sub, at: trialTheta, slot: trialSlot)
            // A step is accepted unless it raises the cost beyond rounding: near the minimum
            // the cost changes by less than its rounding error (a strict comparison would only
            // resolve the position to √ε and inflate λ), while the step computed from the
            // gradient is accurate to ε.
            if trial.cost.isFinite, trial.cost <= current.cost * (1 + 1e-12) {
                theta = trialTheta
                current = trial
                workspace.currentSlot = trialSlot
                lambda = max(lambda * 0.3, 1e-15)
                if length <= tolerance {
                    converged = true
                    break
                }
            } else {
                lambda *= 4
                if length <= tolerance || lambda > 1e16 {
                    converged = length <= tolerance
                    break
                }
            }
        }
        return LevenbergMarquardtRun(
            theta: theta, cost: current.cost, fisher: current.normal,
            iterations: iterations, converged: converged, commonOffset: current.commonOffset,
            offsetVariance: Self.offsetVariance(current))
    }

    /// One damped step, by the configured linear solver; nil when the system is singular.
    ///
    /// The normal-matrix solvers use the full Hessian JᵀWJ + Σ wᵢ rᵢ ∇²rᵢ when it is positive
    /// definite after damping (Newton's quadratic convergence even where the residuals are
    /// large), and JᵀWJ otherwise; the QR solver works on the Jacobian itself and so takes
    /// Gauss–Newton steps.
    mutating func solveStep(_ sub: Subspace, at point: Evaluation, mu: Double) -> SIMD3<Double>? {
        let q = sub.order
        let gradient = point.gradient
        switch configuration.linearSolver {
        case .automatic:
            if configuration.usesSecondOrder {
                var newton = point.normal
                newton.add(point.curvature)
                newton.addDiagonal(mu)
                if let step = newton.solve(-gradient) { return step }
            }
            var damped = point.normal
            damped.addDiagonal(mu)
            return damped.solve(-gradient)
        case .normalEquations:
            for pass in 0..<2 {
                let secondOrder = pass == 0
                if secondOrder, !configuration.usesSecondOrder { continue }
                workspace.matrixA.reshape(rows: q, columns: q)
                workspace.matrixB.reshape(rows: q, columns: 1)
                for j in 0..<q {
                    for i in j..<q {
                        workspace.matrixA[i, j] = point.normal[i, j] + (secondOrder ? point.curvature[i, j] : 0)
                    }
                    workspace.matrixA[j, j] += mu
                    workspace.matrixB[j, 0] = -gradient[j]
                }
                do {
                    try LAPACK.solveSPD(&workspace.matrixA, &workspace.matrixB)
                    return vector(workspace.matrixB, count: q)
                } catch {
                    continue
                }
            }
            return nil
        case .householderQR:
            // [√W J; √μ I] δ = [−√W r; 0] in the least-squares sense.
            let m = workspace.active.count
            let offset = workspace.currentSlot * workspace.terms.count
            workspace.matrixA.reshape(rows: m + q, columns: q)
            workspace.matrixB.reshape(rows: m + q, columns: 1)
            let root = mu.squareRoot()
            for (j, i) in workspace.active.enumerated() {
                let s = weight(i).squareRoot()
                let a = workspace.jacobian[offset + j]
                for k in 0..<q { workspace.matrixA[j, k] = s * a[k] }
                workspace.matrixB[j, 0] = -s * workspace.residual[offset + j]
            }
            for k in 0..<q { workspace.matrixA[m + k, k] = root }
            do {
                try LAPACK.leastSquares(&workspace.matrixA, &workspace.matrixB, workspace: &workspace.lapack)
            } catch { return nil }
            return vector(workspace.matrixB, count: q)
        }
    }

    func vector(_ matrix: Matrix, count q: Int) -> SIMD3<Double> {
        SIMD3(matrix[0, 0], q > 1 ? matrix[1, 0] : 0, q > 2 ? matrix[2, 0] : 0)
    }

    // MARK: Initial guess

    /// Linearised least squares on differences of squared ranges against the closest beacon
    /// (ref): 2 (bᵢ − b_ref)ᵀ p = |bᵢ|² − |b_ref|² − d̂ᵢ² + d̂_ref², rows weighted by 1/d̂ᵢ⁴ (the
    /// variance of d̂ᵢ² grows as d̂ᵢ⁴), solved in the subspace by the
    /// hand path or LAPACK `dgelsd`. Falls back to the centroid when that system is singular
    /// or its answer lies implausibly far from the beacons.
    mutating func initialGuess(_ sub: Subspace, centroid: SIMD3<Double>) -> SIMD3<Double> {
        let q = sub.order
        var ref = workspace.active[0]
        var maxRange = 0.0
        for i in workspace.active {
            if workspace.terms[i].range < workspace.terms[ref].range { ref = i }
            maxRange = max(maxRange, workspace.terms[i].range)
        }
        let bRef = workspace.terms[ref].position
        let dRef = workspace.terms[ref].range
        let toRef = bRef - sub.origin
        var guess: SIMD3<Double>?
        switch configuration.linearSolver {
        case .automatic:
            var normal = SmallSymmetricMatrix(order: q)
            var rhs = SIMD3<Double>.zero
            for i in workspace.active where i != ref {
                let c = workspace.terms[i].position - bRef
                let a = 2 * sub.project(c)
                let di = workspace.terms[i].range
                let b = (c * c).sum() + 2 * (c * toRef).sum() - di * di + dRef * dRef
                // Row weight 1/d̂ᵢ⁴: the variance of d̂ᵢ² grows as d̂ᵢ⁴.
                let v = 1 / (di * di * di * di)
                normal.addOuter(a, weight: v)
                rhs += (v * b) * a
            }
            guess = normal.solve(rhs)
        case .normalEquations, .householderQR:
            let rows = workspace.active.count - 1
            workspace.matrixA.reshape(rows: rows, columns: q)
            workspace.matrixB.reshape(rows: max(rows, q), columns: 1)
            var j = 0
            for i in workspace.active where i != ref {
                let c = workspace.terms[i].position - bRef
                let a = 2 * sub.project(c)
                let di = workspace.terms[i].range
                let s = 1 / (di * di)
                for k in 0..<q { workspace.matrixA[j, k] = s * a[k] }
                workspace.matrixB[j, 0] = s * ((c * c).sum() + 2 * (c * toRef).sum() - di * di + dRef * dRef)
                j += 1
            }
            do {
                let rank = try LAPACK.leastSquaresSVD(
                    &workspace.matrixA, &workspace.matrixB, rcond: 1e-10,
                    workspace: &workspace.lapack)
                if rank == q { guess = vector(workspace.matrixB, count: q) }
            } catch {
                guess = nil
            }
        }
        let fallbackGuess = sub.coordinates(of: centroid)
        guard let theta = guess, theta.x.isFinite, theta.y.isFinite, theta.z.isFinite else {
            return fallbackGuess
        }
        let distance = sub.point(theta) - centroid
        if (distance * distance).sum().squareRoot() > 3 * maxRange + 10 { return fallbackGuess }
        return theta
    }

    // MARK: Robust rejection

    /// Tries the fit without each active beacon in turn and rejects the
    /// one whose removal leaves the smallest weighted residual sum. Returns the solution
    /// without it, or nil when no removal reduces the cost.
    mutating func leaveOneOut(
        _ sub: Subspace, from theta: SIMD3<Double>
    )
        -> (theta: SIMD3<Double>, iterations: Int)?
    {
        var iterations = 0
        var best = -1
        var bestCost = Double.infinity
        var bestTheta = theta
        let count = workspace.active.count
        for position in 0..<count {
            let removed = workspace.active.remove(at: position)
            // Warm start at the full-set solution, and a cold start from the linearised
            // guess without the beacon (the full-set solution may sit in the basin the
            // outlier dug).
            var run = levenbergMarquardt(sub, from: theta)
            var centroid = SIMD3<Double>.zero
            for i in workspace.active { centroid += workspace.terms[i].position }
            centroid /= Double(workspace.active.count)
            let cold = levenbergMarquardt(sub, from: initialGuess(sub, centroid: centroid))
            iterations += run.iterations + cold.iterations
            if cold.cost < run.cost { run = cold }
            if run.cost < bestCost {
                bestCost = run.cost
                best = position
                bestTheta = run.theta
            }
            workspace.active.insert(removed, at: position)
        }
        guard best >= 0 else { return nil }
        // The residual the rejected beacon had: recompute it at the full-set solution.
        _ = evaluate(sub, at: theta, slot: workspace.currentSlot)
        let residual = workspace.residual[workspace.currentSlot * workspace.terms.count + best]
        let index = workspace.active.remove(at: best)
        workspace.rejected.append(index)
        workspace.rejectedResidual.append(residual)
        workspace.rejectedNormalized.append(residual * weight(index).squareRoot())
        return (bestTheta, iterations)
    }

    // MARK: Figures of merit

    /// √(Σ rᵢ²/m) over the active beacons at the current solution (dB or metres).
    func residualRMS() -> Double {
        let offset = workspace.currentSlot * workspace.terms.count
        var sum = 0.0
        for j in 0..<workspace.active.count { sum += workspace.residual[offset + j] * workspace.residual[offset + j] }
        return (sum / Double(max(workspace.active.count, 1))).squareRoot()
    }

    /// Σ wᵢ rᵢ² over the active beacons at the last evaluated point (the stored residuals, the
    /// common offset already taken out), without the priors' terms: the fix's χ².
    func weightedResidualSquares() -> Double {
        let offset = workspace.currentSlot * workspace.terms.count
        let likelihood = configuration.estimator == .maximumLikelihood
        var sum = 0.0
        for j in 0..<workspace.active.count {
            let term = workspace.terms[workspace.active[j]]
            let r = workspace.residual[offset + j]
            sum += (likelihood ? term.weight : term.rangeWeight) * r * r
        }
        return sum
    }

    /// B F⁻¹ Bᵀ with F the Fisher information (JᵀWJ at the solution): the hand inverse, or
    /// LAPACK `dpotrf`/`dpotri` for the LAPACK solvers.
    mutating func positionCovariance(_ sub: Subspace, fisher: SmallSymmetricMatrix) -> PositionCovariance {
        let q = sub.order
        var inverse = SmallSymmetricMatrix(order: q)
        switch configuration.linearSolver {
        case .automatic:
            guard let inv = fisher.inverse() else { return Self.unbounded }
            inverse = inv
        case .normalEquations, .householderQR:
            workspace.matrixA.reshape(rows: q, columns: q)
            for j in 0..<q { for i in j..<q { workspace.matrixA[i, j] = fisher[i, j] } }
            do { try LAPACK.invertSPD(&workspace.matrixA) } catch { return Self.unbounded }
            for j in 0..<q { for i in j..<q { inverse[i, j] = workspace.matrixA[i, j] } }
        }
        var c = PositionCovariance.zero
        for i in 0..<q {
            let u = sub.column(i)
            for j in 0..<q {
                c.add(inverse[i, j], u, sub.column(j))
            }
        }
        return c
    }

    /// A covariance standing for "not determined": 10⁶ m² per axis.
    static let unbounded = PositionCovariance(xx: 1e6, xy: 0, yy: 1e6, zz: 1e6)

    /// √trace((HᵀH)⁻¹), H the unit vectors from the beacons to p in the subspace.
    func dilutionOfPrecision(_ sub: Subspace, at p: SIMD3<Double>) -> Double {
        var h = SmallSymmetricMatrix(order: sub.order)
        for i in workspace.active {
            let delta = p - workspace.terms[i].position
            let d = max((delta * delta).sum().squareRoot(), 0.01)
            h.addOuter(sub.project(delta / d), weight: 1)
        }
        guard let inverse = h.inverse() else { return .infinity }
        return max(inverse.trace, 0).squareRoot()
    }

    /// The horizontal error ellipse: closed form on the hand path, LAPACK `dsyev` otherwise.
    mutating func ellipse(of covariance: PositionCovariance) -> ErrorEllipse {
        guard configuration.linearSolver != .automatic else { return ErrorEllipse(horizontalOf: covariance) }
        workspace.matrixA.reshape(rows: 2, columns: 2)
        workspace.matrixA[0, 0] = covariance.xx
        workspace.matrixA[1, 0] = covariance.xy
        workspace.matrixA[0, 1] = covariance.xy
        workspace.matrixA[1, 1] = covariance.yy
        do {
            try LAPACK.symmetricEigen(
                &workspace.matrixA, eigenvalues: &workspace.eigenvalues,
                workspace: &workspace.lapack)
        } catch {
            return ErrorEllipse(horizontalOf: covariance)
        }
        return ErrorEllipse(
            eigenvalues: (workspace.eigenvalues[1], workspace.eigenvalues[0]),
            majorAxis: (workspace.matrixA[0, 1], workspace.matrixA[1, 1]))
    }
}
