import LinearAlgebra

/// Buffers a ``TrilaterationSolver`` keeps between solves, so that a solve of the same size
/// as an earlier one allocates nothing. Arrays only grow.
struct SolverWorkspace: Sendable {
    /// Per beacon, indexed like the observations of the current solve: what the residual
    /// loop needs, packed together (one load per beacon).
    var terms: [BeaconTerm] = []
    /// Indices of the beacons currently in the fit.
    var active: [Int] = []
    /// Per beacon, 1/σ² of one reading, dB⁻² (the outline posterior's weight of a mean; filled
    /// only when the posterior is computed).
    var readingWeight: [Double] = []
    /// Indices rejected as outliers, in order, with their residual and normalised residual.
    var rejected: [Int] = []
    var rejectedResidual: [Double] = []
    var rejectedNormalized: [Double] = []

    // Two slots (current, trial) of residuals and Jacobian rows, 2 × beacons each.
    var residual: [Double] = []
    var jacobian: [SIMD3<Double>] = []
    var currentSlot = 0
    /// 1/τ² of the common-offset prior for the current solve, dB⁻² (0: no offset estimated).
    var offsetPriorPrecision = 0.0
    /// The centroid prior of the current solve: its centre and weight 1/s², m⁻² (0: none).
    var priorCentre = SIMD3<Double>.zero
    var priorWeight = 0.0
    /// The beacons of the centroid prior (reused).
    var nearest: [Int] = []
    /// The grid of the outline posterior, built at the first fallback that needs it (and again
    /// when the outline changes).
    var outlinePosterior: OutlinePosterior?
    /// The detection posterior's coarser grid (``OutlinePosterior/maximumDetectionCells``),
    /// built likewise.
    var detectionPosterior: OutlinePosterior?

    // LAPACK operands and scratch.
    var matrixA = Matrix(rows: 0, columns: 0)
    var matrixB = Matrix(rows: 0, columns: 0)
    var eigenvalues: [Double] = []
    var lapack = LAPACKWorkspace()

    /// Cached standard-normal quantile for the χ² test, keyed by significance.
    var quantileSignificance = Double.nan
    var quantileZ = 0.0
    /// Cached studentised-residual threshold, keyed by significance and beacon count.
    var studentizedSignificance = Double.nan
    var studentizedCount = 0
    var studentizedThreshold = 0.0

    /// Clears the per-beacon arrays, keeping capacity.
    mutating func reset(capacity: Int) {
        terms.removeAll(keepingCapacity: true)
        active.removeAll(keepingCapacity: true)
        rejected.removeAll(keepingCapacity: true)
        rejectedResidual.removeAll(keepingCapacity: true)
        rejectedNormalized.removeAll(keepingCapacity: true)
        if residual.count < 2 * capacity {
            residual.append(contentsOf: repeatElement(0, count: 2 * capacity - residual.count))
            jacobian.append(contentsOf: repeatElement(.zero, count: 2 * capacity - jacobian.count))
        }
    }
}

/// What the residual loop needs of one beacon.
struct BeaconTerm: Sendable {
    /// Position, metres.
    var position: SIMD3<Double>
    /// RSSI̅ − P₀, dB: the ML residual is `offset + slope · ln d`.
    var offset: Double
    /// k = 10 n/ln 10.
    var slope: Double
    /// m/σ², dB⁻².
    var weight: Double
    /// Median distance d̂, metres.
    var range: Double
    /// 1/σ_d², m⁻².
    var rangeWeight: Double
}
