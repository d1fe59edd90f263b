import BeaconModel
import Foundation
import LinearAlgebra
import Ranging

/// Computes a position ``Fix`` from beacon observations: a linearised least-squares start,
/// Levenberg–Marquardt refinement of the maximum-likelihood (or range least-squares) cost,
/// χ² outlier rejection, and a covariance from the Fisher information.
///
/// The solver is a value holding its ``Configuration`` and a reusable workspace. Keep one per
/// thread or task and call ``solve(_:into:)`` with a caller-owned ``Fix``: after the first
/// solve of a given beacon count, solving allocates no heap memory.
public struct TrilaterationSolver: Sendable {
    /// The settings of every solve.
    public var configuration: Configuration
    var workspace = SolverWorkspace()

    /// A solver with the given configuration (defaults: maximum likelihood, planar at 1.2 m,
    /// outlier rejection on).
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// Solves for the position and returns a new fix.
    /// - Throws: ``TrilaterationError`` for input that cannot give any fix.
    public mutating func solve(_ observations: [BeaconObservation]) throws(TrilaterationError) -> Fix {
        var fix = Fix(reservingCapacity: observations.count)
        try solve(observations, into: &fix)
        return fix
    }

    /// Solves for the position, refilling `fix` in place (its arrays keep their capacity, so a
    /// steady-state solve allocates nothing).
    ///
    /// Fewer beacons than unknowns + 1, or beacons all at one point, give a weighted-centroid
    /// fix with status ``FixStatus/fallback(_:)``; collinear (2D) or coplanar (3D) beacons give
    /// ``FixStatus/degenerate(rank:)``. Neither throws, and no result field is ever NaN.
    /// - Throws: ``TrilaterationError`` when there are no observations or one is invalid
    ///   (non-finite or positive RSSI, count < 1, unusable model or position, or a value
    ///   beyond the limits in ObservationLimits.swift, such as ``coordinateLimit``), or when the
    ///   configuration is out of range; `fix` is left unchanged then.
    public mutating func solve(_ observations: [BeaconObservation], into fix: inout Fix) throws(TrilaterationError) {
        try solve(observations, into: &fix, fallback: configuration.fallback)
    }

    /// ``solve(_:into:)`` with the fallback estimate given per solve (an engine asks for the
    /// outline posterior only where the fallback fix is reported); `offsetTakenOut`: an RSSI
    /// offset in dB already subtracted from the observations' means (the device's), which the
    /// detection curve of ``Fallback/detectionPosterior`` adds back.
    package mutating func solve(
        _ observations: [BeaconObservation], into fix: inout Fix, fallback estimate: Fallback,
        offsetTakenOut: Double = 0
    ) throws(TrilaterationError) {
        try configuration.validate()
        guard !observations.isEmpty else { throw .noObservations }
        for observation in observations { try Self.validate(observation) }

        load(observations)
        let level = observations[closestBeacon()].level
        let subspace = self.subspace(onLevel: level)

        fix.level = level
        fix.iterations = 0
        fix.constrainedToOutline = false
        fix.commonOffset = 0
        fix.commonOffsetVariance = 0
        fix.chiSquare = 0
        fix.degreesOfFreedom = 0
        fix.centroidPriorWeight = 0
        workspace.offsetPriorPrecision = 0
        if configuration.estimator == .maximumLikelihood, let tau = configuration.commonOffsetSigma {
            workspace.offsetPriorPrecision = 1 / (tau * tau)
        }
        fix.usedBeacons.removeAll(keepingCapacity: true)
        fix.rejectedBeacons.removeAll(keepingCapacity: true)

        // One more beacon than unknowns; the common offset, when estimated, is one more unknown
        // (with three beacons in 2D it would be fitted from its prior alone).
        let required = subspace.order + (workspace.offsetPriorPrecision > 0 ? 2 : 1)
        if workspace.active.count < required {
            fallback(
                .tooFewBeacons(available: workspace.active.count, required: required),
                subspace: subspace, into: &fix)
        } else {
            determine(subspace: subspace, into: &fix)
        }

        if estimate != .weightedCentroid, case .fallback = fix.status {
            posteriorFallback(
                observations, subspace: subspace, detects: estimate == .detectionPosterior,
                offsetTakenOut: offsetTakenOut, into: &fix)
        }
        if !fix.position.isFiniteCoordinate || !fix.covariance.isFinite || !fix.residualRMS.isFinite {
            // Defensive: no arithmetic path above should get here, but a fix never carries NaN.
            fallback(.coincidentBeacons, subspace: subspace, into: &fix)
        }
        constrainToOutline(&fix)
        for i in workspace.active { fix.usedBeacons.append(observations[i].identity) }
        for (k, i) in workspace.rejected.enumerated() {
            fix.rejectedBeacons.append(
                RejectedBeacon(
                    identity: observations[i].identity,
                    reason: .inconsistentResidual(
                        residual: workspace.rejectedResidual[k],
                        normalized: workspace.rejectedNormalized[k])))
        }
    }

    // MARK: Input

    static func validate(_ o: BeaconObservation) throws(TrilaterationError) {
        guard o.meanRSSI.isFinite else { throw .nonFiniteRSSI(o.identity) }
        guard o.meanRSSI <= 0 else { throw .positiveRSSI(o.identity, rssi: o.meanRSSI) }
        guard o.meanRSSI >= rssiRange.lowerBound else {
            throw .outOfRange(o.identity, field: "mean RSSI", value: o.meanRSSI, range: rssiRange)
        }
        guard o.count >= 1 else { throw .invalidSampleCount(o.identity, count: o.count) }
        let m = o.model
        guard m.measuredPower.isFinite, m.exponent.isFinite, m.exponent > 0,
            m.sigma.isFinite, m.sigma > 0
        else { throw .invalidModel(o.identity) }
        // Written out (no array literals): this runs for every observation of every fix.
        func check(_ field: String, _ value: Double, _ range: ClosedRange<Double>) throws(TrilaterationError) {
            guard range.contains(value) else { throw .outOfRange(o.identity, field: field, value: value, range: range) }
        }
        try check("measured power", m.measuredPower, measuredPowerRange)
        try check("path-loss exponent", m.exponent, exponentRange)
        try check("sigma", m.sigma, sigmaRange)
        guard o.position.x.isFinite, o.position.y.isFinite, o.position.z.isFinite else {
            throw .nonFinitePosition(o.identity)
        }
        let coordinates = -coordinateLimit...coordinateLimit
        try check("coordinate", o.position.x, coordinates)
        try check("coordinate", o.position.y, coordinates)
        try check("coordinate", o.position.z, coordinates)
    }

    mutating func load(_ observations: [BeaconObservation]) {
        workspace.reset(capacity: observations.count)
        for (i, o) in observations.enumerated() {
            let k = o.model.logSlope
            let count = Double(o.count)
            let d = o.model.medianDistance(forRSSI: o.meanRSSI)
            let sigmaD = d * o.model.sigma / (k * count.squareRoot())
            workspace.active.append(i)
            workspace.terms.append(
                BeaconTerm(
                    position: SIMD3(o.position.x, o.position.y, o.position.z),
                    offset: o.meanRSSI - o.model.measuredPower,
                    slope: k, weight: count / (o.model.sigma * o.model.sigma), range: d,
                    rangeWeight: 1 / (sigmaD * sigmaD)))
        }
    }

    /// Index of the beacon with the smallest median distance.
    func closestBeacon() -> Int {
        var best = 0
        for i in workspace.terms.indices where workspace.terms[i].range < workspace.terms[best].range { best = i }
        return best
    }

    // MARK: Determined and degenerate geometry

    /// Geometry check, start, refinement, robust rejection and covariance.
    mutating func determine(subspace: Subspace, into fix: inout Fix) {
        var sub = subspace
        var rank = subspace.order
        var centroid = SIMD3<Double>.zero
        for i in workspace.active { centroid += workspace.terms[i].position }
        centroid /= Double(workspace.active.count)

        // Rank of the beacon geometry along the unknown directions.
        var scatter = SmallSymmetricMatrix(order: sub.order)
        for i in workspace.active { scatter.addOuter(sub.project(workspace.terms[i].position - centroid), weight: 1) }
        if !scatter.isPositiveDefinite(relativeFloor: 1e-10) {
            guard let reduced = reducedSubspace(sub, scatter: scatter, centroid: centroid) else {
                fallback(.coincidentBeacons, subspace: subspace, into: &fix)
                return
            }
            sub = reduced
            rank = reduced.order
        }

        workspace.priorWeight = 0
        if let scale = configuration.centroidPriorScale, rank == subspace.order {
            let prior = nearestCentroid(configuration.centroidPriorBeacons)
            let s = scale * max(prior.spread, 1)
            workspace.priorCentre = prior.centre
            workspace.priorWeight = 1 / (s * s)
        }
        var theta = initialGuess(sub, centroid: centroid)
        var residualsStale = false
        var run = levenbergMarquardt(sub, from: theta)
        if workspace.offsetPriorPrecision > 0 {
            // With the offset unknown the ranges, and so the linearised start, are scaled by it;
            // the power-weighted centroid does not depend on it: start there too, keep the better.
            let other = levenbergMarquardt(sub, from: sub.coordinates(of: weightedCentroid()))
            let spent = run.iterations + other.iterations
            if other.cost < run.cost {
                run = other
            } else {
                // The stored residuals are the other start's, not the kept run's.
                residualsStale = true
            }
            run.iterations = spent
        }
        theta = run.theta
        var iterations = run.iterations
        var converged = run.converged

        if configuration.rejectsOutliers {
            while workspace.rejected.count < configuration.maximumRejections,
                workspace.active.count >= sub.order + 2,
                isInconsistent(sub, run: run)
            {
                guard let outcome = leaveOneOut(sub, from: theta) else { break }
                iterations += outcome.iterations
                run = levenbergMarquardt(sub, from: outcome.theta)
                residualsStale = false
                theta = run.theta
                iterations += run.iterations
                converged = run.converged
            }
        }

        var p = sub.point(theta)
        var fisher = run.fisher
        fix.commonOffset = run.commonOffset
        fix.commonOffsetVariance = run.offsetVariance
        if rank == subspace.order, case .planar = configuration.dimension,
            let outline = configuration.outline, outline.vertices.count >= 3,
            !OutlineGeometry.contains(outline.vertices, Point2D(x: p.x, y: p.y))
        {
            let constrained = solveOnBoundary(sub, outline: outline, outside: p)
            p = constrained.point
            iterations += constrained.iterations
            let there = evaluate(sub, at: sub.coordinates(of: p), slot: workspace.currentSlot)
            residualsStale = false
            fisher = there.normal
            fix.commonOffset = there.commonOffset
            fix.commonOffsetVariance = Self.offsetVariance(there)
            fix.constrainedToOutline = true
        }

        fix.iterations = iterations
        fix.position = Point3D(x: p.x, y: p.y, z: p.z)
        if residualsStale { _ = evaluate(sub, at: sub.coordinates(of: p), slot: workspace.currentSlot) }
        fix.residualRMS = residualRMS()
        var covariance = positionCovariance(sub, fisher: fisher)
        if rank < subspace.order {
            if let mirror = mirrorSolution(subspace, determined: sub, at: p) {
                // The full problem solved on one side of the beacons: along the determined
                // directions it is exact; across them only the offset's size is known.
                p = mirror.onAxis
                fix.position = Point3D(x: p.x, y: p.y, z: p.z)
                fix.residualRMS = residualRMS()
                fix.iterations += mirror.iterations
                covariance = mirror.covariance
            } else {
                addAcrossSpread(&covariance, subspace: subspace, determined: sub, at: p)
            }
            fix.status = .degenerate(rank: rank)
            fix.gdop = .infinity
        } else {
            fix.status = converged ? .converged : .iterationLimit
            fix.gdop = dilutionOfPrecision(sub, at: p)
        }
        fix.covariance = covariance
        fix.accuracy = covariance.horizontalRadius
        fix.ellipse = ellipse(of: covariance)
        fix.centroidPriorWeight = workspace.priorWeight
        if rank == subspace.order {
            // The stored residuals are at the reported point (see `residualsStale` above).
            fix.chiSquare = weightedResidualSquares()
            let offsetParameters = workspace.offsetPriorPrecision > 0 ? 1 : 0
            fix.degreesOfFreedom = max(workspace.active.count - rank - offsetParameters, 0)
        }
    }

    /// The subspace spanned by the directions the beacons determine (eigenvectors of their
    /// scatter with eigenvalues above 1e-10 × the largest), through the beacons' centroid; nil
    /// when the beacons coincide. Uses LAPACK `dsyev`.
    mutating func reducedSubspace(
        _ sub: Subspace, scatter: SmallSymmetricMatrix,
        centroid: SIMD3<Double>
    ) -> Subspace? {
        let q = sub.order
        workspace.matrixA.reshape(rows: q, columns: q)
        for j in 0..<q { for i in 0..<q { workspace.matrixA[i, j] = scatter[i, j] } }
        do {
            try LAPACK.symmetricEigen(
                &workspace.matrixA, eigenvalues: &workspace.eigenvalues,
                workspace: &workspace.lapack)
        } catch {
            return nil
        }
        let largest = workspace.eigenvalues[q - 1]
        guard largest > 0 else { return nil }
        var columns: [SIMD3<Double>] = []
        for k in stride(from: q - 1, through: 0, by: -1) where workspace.eigenvalues[k] > 1e-10 * largest {
            var v = SIMD3<Double>.zero
            for i in 0..<q { v += workspace.matrixA[i, k] * sub.column(i) }
            columns.append(v / (v * v).sum().squareRoot())
        }
        guard !columns.isEmpty else { return nil }
        // Origin: the point of the search set nearest to the beacons' centroid, moved along
        // the undetermined directions only.
        var origin = sub.point(sub.coordinates(of: centroid))
        for v in columns { origin -= ((origin - sub.origin) * v).sum() * v }
        return Subspace(
            origin: origin, b0: columns[0],
            b1: columns.count > 1 ? columns[1] : .zero,
            b2: columns.count > 2 ? columns[2] : .zero, order: columns.count)
    }

    /// For rank-deficient geometry: solves the full problem from a start displaced across the
    /// determined set by the offset the ranges imply, then projects the solution back onto
    /// the set. Returns the projected point, the covariance of the full solution plus the
    /// squared offset across the set (the side is unknowable), and the iterations; nil when
    /// the ranges imply no offset or the full Fisher information is singular.
    mutating func mirrorSolution(
        _ subspace: Subspace, determined sub: Subspace, at p: SIMD3<Double>
    )
        -> (onAxis: SIMD3<Double>, covariance: PositionCovariance, iterations: Int)?
    {
        guard let across = acrossDirections(subspace, determined: sub).first else { return nil }
        var total = 0.0, sum = 0.0
        for i in workspace.active {
            let d = workspace.terms[i].range
            let delta = p - workspace.terms[i].position
            sum += max(d * d - (delta * delta).sum(), 0) / (d * d)
            total += 1 / (d * d)
        }
        let offset = (sum / total).squareRoot()
        guard offset > 0.05 else { return nil }
        let run = levenbergMarquardt(subspace, from: subspace.coordinates(of: p + offset * across))
        let full = subspace.point(run.theta)
        guard run.fisher.isPositiveDefinite(relativeFloor: 1e-10) else { return nil }
        var covariance = positionCovariance(subspace, fisher: run.fisher)
        var onAxis = full
        for v in acrossDirections(subspace, determined: sub) {
            let component = ((full - sub.origin) * v).sum()
            onAxis -= component * v
            covariance.add(component * component, v, v)
        }
        return (onAxis, covariance, run.iterations)
    }

    /// Unit directions of `subspace` orthogonal to `determined`.
    func acrossDirections(_ subspace: Subspace, determined: Subspace) -> [SIMD3<Double>] {
        var added: [SIMD3<Double>] = []
        for k in 0..<subspace.order {
            var v = subspace.column(k)
            for j in 0..<determined.order { v -= (v * determined.column(j)).sum() * determined.column(j) }
            for u in added { v -= (v * u).sum() * u }
            let norm = (v * v).sum().squareRoot()
            if norm > 1e-6, added.count < subspace.order - determined.order { added.append(v / norm) }
        }
        return added
    }

    /// For rank-deficient geometry: the variance across the determined set, from how far off
    /// it the ranges put the phone: s² = Σ vᵢ (max(d̂ᵢ² − |p − bᵢ|², 0) + σ_dᵢ²)/Σ vᵢ, vᵢ = 1/d̂ᵢ²,
    /// shared equally by the undetermined directions.
    func addAcrossSpread(
        _ covariance: inout PositionCovariance, subspace: Subspace,
        determined: Subspace, at p: SIMD3<Double>
    ) {
        var total = 0.0, sum = 0.0
        for i in workspace.active {
            let d = workspace.terms[i].range
            let v = 1 / (d * d)
            let delta = p - workspace.terms[i].position
            sum += v * (max(d * d - (delta * delta).sum(), 0) + 1 / workspace.terms[i].rangeWeight)
            total += v
        }
        let missing = subspace.order - determined.order
        let s2 = sum / total / Double(max(missing, 1))
        let added = acrossDirections(subspace, determined: determined)
        for v in added { covariance.add(s2, v, v) }
    }

    // MARK: Fallback

    /// The active beacons' positions weighted by 1/d̂ᵢ² (d̂ᵢ the median range): for beacons
    /// with one model, weights in received power 10^(RSSI/10) when n = 2.
    func weightedCentroid() -> SIMD3<Double> { centroid(of: workspace.active) }

    /// The positions of the beacons `indices` weighted by 1/d̂ᵢ².
    func centroid(of indices: [Int]) -> SIMD3<Double> {
        var total = 0.0
        var c = SIMD3<Double>.zero
        for i in indices {
            let d = max(workspace.terms[i].range, 0.1)
            let v = 1 / (d * d)
            c += v * workspace.terms[i].position
            total += v
        }
        return c / total
    }

    /// The centroid of the `count` active beacons with the shortest median ranges, weighted by
    /// 1/d̂ᵢ², and the weighted RMS horizontal distance of those beacons from it (metres).
    mutating func nearestCentroid(_ count: Int) -> (centre: SIMD3<Double>, spread: Double) {
        // The k shortest ranges by repeated selection into a reused buffer (k is small).
        workspace.nearest.removeAll(keepingCapacity: true)
        let k = min(count, workspace.active.count)
        while workspace.nearest.count < k {
            var best = -1
            for i in workspace.active where !workspace.nearest.contains(i) {
                if best < 0 || workspace.terms[i].range < workspace.terms[best].range { best = i }
            }
            workspace.nearest.append(best)
        }
        let c = centroid(of: workspace.nearest)
        var total = 0.0, spread = 0.0
        for i in workspace.nearest {
            let d = max(workspace.terms[i].range, 0.1)
            let e = workspace.terms[i].position - c
            total += 1 / (d * d)
            spread += (1 / (d * d)) * (e.x * e.x + e.y * e.y)
        }
        return (c, (spread / total).squareRoot())
    }

    /// The weighted centroid (weights 1/d̂²) with the covariance of the mixture of the
    /// beacons' range shells: Σ vᵢ [(bᵢ − c)(bᵢ − c)ᵀ + (rᵢ² + σ_dᵢ²)/k I]/Σ vᵢ, rᵢ the range in the
    /// k estimated dimensions.
    mutating func fallback(_ reason: FallbackReason, subspace: Subspace, into fix: inout Fix) {
        let planar = subspace.isHorizontalPlane
        var total = 0.0
        for i in workspace.active {
            let d = max(workspace.terms[i].range, 0.1)
            total += 1 / (d * d)
        }
        var c = weightedCentroid()
        if planar { c.z = subspace.origin.z }
        var cov = PositionCovariance.zero
        for i in workspace.active {
            let d = max(workspace.terms[i].range, 0.1)
            let v = 1 / (d * d) / total
            let b = workspace.terms[i].position
            let e = b - c
            let variance = 1 / workspace.terms[i].rangeWeight
            if planar {
                let dz = b.z - c.z
                let shell = (max(d * d - dz * dz, 0) + variance) / 2
                cov.xx += v * (e.x * e.x + shell)
                cov.xy += v * e.x * e.y
                cov.yy += v * (e.y * e.y + shell)
            } else {
                let shell = (d * d + variance) / 3
                cov.xx += v * (e.x * e.x + shell)
                cov.xy += v * e.x * e.y
                cov.yy += v * (e.y * e.y + shell)
                cov.xz += v * e.x * e.z
                cov.yz += v * e.y * e.z
                cov.zz += v * (e.z * e.z + shell)
            }
        }
        fix.position = Point3D(x: c.x, y: c.y, z: c.z)
        fix.covariance = cov
        fix.accuracy = cov.horizontalRadius
        fix.ellipse = ErrorEllipse(horizontalOf: cov)
        fix.residualRMS = 0
        fix.gdop = .infinity
        fix.status = .fallback(reason)
    }

    /// Replaces a fallback fix's position and covariance by the posterior over the outline
    /// (``Fallback/outlinePosterior``, or with `detects` ``Fallback/detectionPosterior``), for
    /// planar fixes when an outline is set (and, with `detects`, a detection model and the
    /// level's beacons).
    ///
    /// With `prior` (a determined fix), the solve's centroid prior enters the detection posterior.
    /// - Returns: whether `fix` was replaced.
    @discardableResult
    mutating func posteriorFallback(
        _ observations: [BeaconObservation], subspace: Subspace, detects: Bool, offsetTakenOut: Double,
        into fix: inout Fix, prior: Bool = false
    ) -> Bool {
        guard subspace.isHorizontalPlane, let outline = configuration.outline else { return false }
        let detection = detects ? configuration.detection : nil
        if detects && (detection == nil || configuration.detectionBeacons.isEmpty) { return false }
        // Each beacon's mean weighs as one reading (see OutlinePosterior).
        workspace.readingWeight.removeAll(keepingCapacity: true)
        let factor = configuration.fallbackVarianceFactor
        for o in observations { workspace.readingWeight.append(1 / (factor * o.model.sigma * o.model.sigma)) }
        let (mean, covariance): (SIMD2<Double>, PositionCovariance)
        if let detection {
            OutlinePosterior.keep(
                &workspace.detectionPosterior, for: outline.vertices, cells: OutlinePosterior.maximumDetectionCells)
            guard workspace.detectionPosterior != nil else { return false }
            (mean, covariance) = workspace.detectionPosterior!.estimate(
                detection: detection, beacons: configuration.detectionBeacons,
                offsetShift: offsetTakenOut, terms: workspace.terms, weights: workspace.readingWeight,
                active: workspace.active, planeZ: subspace.origin.z,
                offsetPrecision: workspace.offsetPriorPrecision,
                prior: prior
                    ? (SIMD2(workspace.priorCentre.x, workspace.priorCentre.y), workspace.priorWeight) : (.zero, 0))
        } else {
            OutlinePosterior.keep(
                &workspace.outlinePosterior, for: outline.vertices, cells: OutlinePosterior.maximumCells)
            guard workspace.outlinePosterior != nil else { return false }
            (mean, covariance) = workspace.outlinePosterior!.estimate(
                terms: workspace.terms, weights: workspace.readingWeight, active: workspace.active,
                planeZ: subspace.origin.z, offsetPrecision: workspace.offsetPriorPrecision)
        }
        guard mean.x.isFinite, mean.y.isFinite, covariance.isFinite else { return false }
        fix.position.x = mean.x
        fix.position.y = mean.y
        fix.covariance = covariance
        fix.accuracy = covariance.horizontalRadius
        fix.ellipse = ErrorEllipse(horizontalOf: covariance)
        return true
    }

    /// Replaces the determined fix that the last solve made from `observations` (call it right
    /// after that solve, with the same observations and `offsetTakenOut`) by the mean and
    /// covariance of the detection posterior with the solve's centroid prior: the beacons not
    /// heard as evidence, under ``Configuration/detection``. Nothing happens without a curve, a
    /// planar fix on a level with an outline, or when the fix is not determined. The fix keeps
    /// its ``Fix/centroidPriorWeight``: the posterior's covariance includes that prior, which
    /// comes from the same readings, so a track started at the fix takes its information out
    /// as it does for an unrefined fix (`PositionMeasurement(startingTrackAt:)`).
    package mutating func refineWithDetectionPosterior(
        _ observations: [BeaconObservation], offsetTakenOut: Double, into fix: inout Fix
    ) {
        guard fix.status.isDetermined,
            posteriorFallback(
                observations, subspace: subspace(onLevel: fix.level), detects: true, offsetTakenOut: offsetTakenOut,
                into: &fix, prior: true)
        else { return }
        fix.constrainedToOutline = false
        constrainToOutline(&fix)
    }

    /// The subspace a fix on `level` is solved in: the receiver plane of the level (its
    /// elevation plus the receiver height) in 2D, all of space in 3D.
    func subspace(onLevel level: Int) -> Subspace {
        switch configuration.dimension {
        case .planar(let height): .planar(z: (configuration.floorElevations[level] ?? 0) + height)
        case .spatial: .spatial
        }
    }

    // MARK: Outline

    func constrainToOutline(_ fix: inout Fix) {
        guard let outline = configuration.outline, outline.vertices.count >= 3 else { return }
        let planar = fix.position.planar
        if OutlineGeometry.contains(outline.vertices, planar) { return }
        let nearest = OutlineGeometry.nearestBoundaryPoint(outline.vertices, planar)
        fix.position.x = nearest.x
        fix.position.y = nearest.y
        fix.constrainedToOutline = true
    }

    /// The maximum-likelihood point on the outline's boundary, for an unconstrained solution
    /// `outside` it: a one-dimensional Levenberg–Marquardt run along the edge nearest to that
    /// solution, clamped to the edge's ends.
    mutating func solveOnBoundary(
        _ sub: Subspace, outline: Polygon, outside p: SIMD3<Double>
    )
        -> (point: SIMD3<Double>, iterations: Int)
    {
        let vertices = outline.vertices
        let n = vertices.count
        var bestStart = SIMD3<Double>.zero, bestDirection = SIMD3<Double>(1, 0, 0)
        var bestLength = 0.0, bestT = 0.0, bestDistance = Double.infinity
        for k in 0..<n {
            let a = vertices[k], b = vertices[(k + 1) % n]
            let start = SIMD3(a.x, a.y, p.z)
            let edge = SIMD3(b.x - a.x, b.y - a.y, 0)
            let length = (edge * edge).sum().squareRoot()
            guard length > 0 else { continue }
            let direction = edge / length
            let t = min(max(((p - start) * direction).sum(), 0), length)
            let offset = p - (start + t * direction)
            let distance = (offset * offset).sum()
            if distance < bestDistance {
                bestDistance = distance
                bestStart = start
                bestDirection = direction
                bestLength = length
                bestT = t
            }
        }
        let edgeSpace = Subspace(origin: bestStart, b0: bestDirection, b1: .zero, b2: .zero, order: 1)
        let run = levenbergMarquardt(edgeSpace, from: SIMD3(bestT, 0, 0))
        let t = min(max(run.theta.x, 0), bestLength)
        return (edgeSpace.point(SIMD3(t, 0, 0)), run.iterations)
    }

    // MARK: χ² test

    /// Whether the current fit fails the consistency test: the weighted residual sum exceeds
    /// the χ²(m − q) quantile, or the largest studentised residual wᵢrᵢ²/(1 − hᵢᵢ) (hᵢᵢ the
    /// leverage wᵢ aᵢᵀ (JᵀWJ)⁻¹ aᵢ) exceeds the χ²(1) quantile at α/m (Bonferroni).
    mutating func isInconsistent(_ sub: Subspace, run: LevenbergMarquardtRun) -> Bool {
        let m = workspace.active.count
        if run.cost > chiSquareThreshold(degrees: m - sub.order) { return true }
        guard let inverse = run.fisher.inverse() else { return false }
        let offset = workspace.currentSlot * workspace.terms.count
        var largest = 0.0
        for (j, i) in workspace.active.enumerated() {
            let a = workspace.jacobian[offset + j]
            let w = weight(i)
            let r = workspace.residual[offset + j]
            var quadratic = 0.0
            for u in 0..<sub.order { for v in 0..<sub.order { quadratic += a[u] * inverse[u, v] * a[v] } }
            let leverage = min(w * quadratic, 0.999)
            largest = max(largest, w * r * r / (1 - leverage))
        }
        return largest > studentizedThreshold(count: m)
    }

    /// (z_{α/(2m)})²: the upper α/m quantile of χ²(1), cached per beacon count.
    mutating func studentizedThreshold(count m: Int) -> Double {
        let alpha = configuration.outlierSignificance
        if alpha != workspace.studentizedSignificance || m != workspace.studentizedCount {
            workspace.studentizedSignificance = alpha
            workspace.studentizedCount = m
            let z = StandardNormal.upperQuantile(alpha / (2 * Double(max(m, 1))))
            workspace.studentizedThreshold = z * z
        }
        return workspace.studentizedThreshold
    }

    mutating func chiSquareThreshold(degrees: Int) -> Double {
        let alpha = configuration.outlierSignificance
        if alpha != workspace.quantileSignificance {
            workspace.quantileSignificance = alpha
            workspace.quantileZ = StandardNormal.upperQuantile(alpha)
        }
        return ChiSquare.upperQuantile(normalQuantile: workspace.quantileZ, degrees: degrees)
    }
}

extension Point3D {
    var isFiniteCoordinate: Bool { x.isFinite && y.isFinite && z.isFinite }
}
