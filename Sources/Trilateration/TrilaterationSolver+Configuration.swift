import BeaconModel

extension TrilaterationSolver {
    /// Which cost the solver minimises.
    public enum Estimator: Sendable, Hashable, Codable {
        /// Maximum likelihood on RSSI: minimise Σ mᵢ/σᵢ² (RSSI̅ᵢ − P₀ᵢ + 10 nᵢ log₁₀ dᵢ)². Efficient
        /// under log-normal shadowing (reaches the Cramér–Rao bound asymptotically).
        case maximumLikelihood
        /// Least squares on distances: minimise Σ (d̂ᵢ − dᵢ)²/σ_dᵢ² with d̂ᵢ the median distance
        /// estimate and σ_dᵢ = d̂ᵢ ln 10 σᵢ/(10 nᵢ √mᵢ). What most libraries do; biased and less
        /// efficient, kept for comparison.
        case rangeLeastSquares
    }

    /// Which coordinates are estimated.
    public enum Dimension: Sendable, Hashable, Codable {
        /// Estimate x and y; z is the fix level's elevation plus `receiverHeight` metres.
        /// The default: with beacons near one ceiling height z is almost unobservable.
        case planar(receiverHeight: Double)
        /// Estimate x, y and z.
        case spatial
    }

    /// How each Levenberg–Marquardt step (and the linearised start) is solved.
    public enum LinearSolver: Sendable, Hashable, Codable {
        /// Hand-written fixed-size Cholesky for the 1–3 unknowns of this problem (fastest);
        /// rank-deficient geometry still goes through LAPACK.
        case automatic
        /// LAPACK `dgels`: Householder QR of the weighted, damping-augmented Jacobian.
        case householderQR
        /// LAPACK `dposv`: Cholesky of the damped normal matrix JᵀWJ + μI.
        case normalEquations
    }

    /// The position of a fix that its readings cannot determine (fewer beacons than unknowns
    /// + 1, or all beacons at one point).
    public enum Fallback: String, Sendable, Hashable, Codable, CaseIterable {
        /// The beacons weighted by 1/d̂ᵢ² (received power when n = 2), with the covariance of
        /// the mixture of their range shells. It assumes the beacons heard are the near ones.
        case weightedCentroid = "weighted-centroid"
        /// The posterior mean of a planar position over ``Configuration/outline`` (uniform
        /// prior there, the readings' likelihood with each beacon's mean counted as one reading,
        /// the common offset integrated out when it is estimated), with the posterior
        /// covariance; on a grid of at most about 4,096 cells of at least 0.25 m. The weighted
        /// centroid when there is no outline or the fix is spatial. It takes no evidence from
        /// which beacons are heard: where hearing a beacon means being near it, it can be far
        /// worse than the centroid (Docs/Evidence/TrilaterationStudies.md has both measurements).
        case outlinePosterior = "outline-posterior"
        /// The outline posterior with evidence from every beacon of the level, heard or not:
        /// the likelihood of the scan's beacon set under ``Configuration/detection``
        /// (P(heard | d, Δ, u) for the heard beacons, 1 − P for the others in
        /// ``Configuration/detectionBeacons``), the common offset Δ (which enters both the
        /// readings and the curve) integrated out in closed form and the scan's propensity u by
        /// adaptive Gauss–Hermite quadrature, on a grid of at most about 1,024 cells. Where being heard means being
        /// near, the beacons not heard push the position towards the heard ones; where it does
        /// not, the curve is flat and the readings decide. The weighted centroid when no model
        /// is set, or as ``outlinePosterior`` says. The engine of IndoorPositioning uses it by
        /// default and learns the model from its own determined fixes as the input goes
        /// (`indoorpos locate --detection-first-pass`: from a first pass; Docs/Reference/Trilateration.md).
        case detectionPosterior = "detection-posterior"
    }

    /// Everything that steers a solve. All defaults are sensible for phones indoors.
    public struct Configuration: Sendable, Hashable, Codable {
        /// The cost minimised. Default ``Estimator/maximumLikelihood``.
        public var estimator: Estimator
        /// Coordinates estimated. Default planar at 1.2 m (`PlanDefaults`' receiver height);
        /// `PlanConfiguration(plan:level:)` of IndoorPositioning sets the plan's own height.
        public var dimension: Dimension
        /// Exclude beacons whose residuals fail the χ² test (see ``outlierSignificance``).
        /// Default on.
        public var rejectsOutliers: Bool
        /// False-alarm probability of the χ² test on the weighted residual sum (0 < α < 1).
        /// Default 0.01.
        public var outlierSignificance: Double
        /// Most beacons one fix may reject. Default 2. At least unknowns + 2 beacons always
        /// remain (otherwise the test has no redundancy).
        public var maximumRejections: Int
        /// If set, positions are kept inside this polygon (horizontal, metres): a planar fix
        /// whose unconstrained optimum lies outside is re-solved along the nearest edge (the
        /// constrained maximum likelihood there); other fixes are moved to the nearest
        /// boundary point. A prior, so constrained fixes may beat the Cramér–Rao bound.
        public var outline: Polygon?
        /// Elevation of each level's floor, metres, for the receiver height of planar fixes.
        /// Levels not listed are at 0.
        public var floorElevations: [Int: Double]
        /// The linear solver of each step. Default ``LinearSolver/automatic``.
        public var linearSolver: LinearSolver
        /// Use the full Hessian JᵀWJ + Σ wᵢ rᵢ ∇²rᵢ in the damped step when it is positive
        /// definite (Newton steps: about half the iterations of Gauss–Newton, and no slow
        /// convergence where residuals are large). Default on. The
        /// ``LinearSolver/householderQR`` solver always takes Gauss–Newton steps.
        public var usesSecondOrder: Bool
        /// Iteration limit of one Levenberg–Marquardt run. Default 50.
        public var maximumIterations: Int
        /// Convergence: a step shorter than this ends the iteration, metres. Default 1e-6 (a
        /// micrometre, far below any accuracy; Gauss–Newton's last step leaves an error much smaller).
        public var stepTolerance: Double
        /// Initial damping factor λ of μ = λ trace(JᵀWJ)/unknowns. Default 1e-3.
        public var initialDamping: Double
        /// Estimate an RSSI offset Δ common to every beacon of the fix jointly with the
        /// position (maximum likelihood only): each residual becomes rᵢ − Δ, with a Gaussian
        /// prior Δ ~ N(0, τ²) of this standard deviation τ in dB. It stands for what one fix
        /// cannot tell apart from the position: the receiving phone's gain, a transmit power set
        /// differently from the plan, a body or bag in the way. Δ is profiled out in closed
        /// form (see ``Fix/commonOffset``), so the position's covariance includes what not
        /// knowing Δ costs. Default nil: the models' values are taken as exact. The QR solver
        /// takes Gauss–Newton steps on the profiled residuals without their coupling term (still
        /// a descent direction; the result is the same minimum).
        public var commonOffsetSigma: Double? = nil
        /// Add a prior on the horizontal position centred on the weighted centroid of the
        /// ``centroidPriorBeacons`` nearest beacons (by median range; weights 1/d̂², which is
        /// received power when n = 2: the weighted centroid of Blumenthal et al. 2007), with a
        /// standard deviation per axis of this factor times the weighted spread of those beacons
        /// about it (at least 1 m). The centroid uses only the order of the readings, so it holds
        /// where the path-loss model does not; the prior keeps a fix from running far from it on
        /// the model's word alone, and weighs little where many beacons agree. Default nil: none.
        public var centroidPriorScale: Double? = nil
        /// The beacons of the centroid prior. Default 3.
        public var centroidPriorBeacons: Int = 3
        /// What a fix reports when its readings cannot determine a position (status
        /// ``FixStatus/fallback(_:)``). Default ``Fallback/weightedCentroid``.
        public var fallback: Fallback = .weightedCentroid
        /// The detection curve of ``Fallback/detectionPosterior``. Default nil (that fallback is
        /// then the weighted centroid).
        public var detection: DetectionModel? = nil
        /// Every beacon of the level the solver positions on, heard or not, for
        /// ``Fallback/detectionPosterior`` (metres, plan coordinates); it must hold the beacons
        /// of every observation. `PlanConfiguration(plan:level:)` of IndoorPositioning sets the
        /// floor's beacons. Default empty.
        public var detectionBeacons: [Point3D] = []
        /// The factor on each reading's variance σ² in the posterior fallbacks
        /// (``Fallback/outlinePosterior``, ``Fallback/detectionPosterior``): where the models
        /// misfit, the readings scatter more than their σ says, and a posterior that believes σ
        /// is narrower than its errors. The engine sets the a-posteriori variance factor χ²/dof
        /// of the determined fixes made before each fit of its detection curve (at least 1).
        /// Default 1.
        public var fallbackVarianceFactor = 1.0

        /// A configuration; every argument has a default.
        public init(
            estimator: Estimator = .maximumLikelihood,
            dimension: Dimension = .planar(receiverHeight: PlanDefaults().receiverHeight),
            rejectsOutliers: Bool = true,
            outlierSignificance: Double = 0.01,
            maximumRejections: Int = 2,
            outline: Polygon? = nil,
            floorElevations: [Int: Double] = [:],
            linearSolver: LinearSolver = .automatic,
            usesSecondOrder: Bool = true,
            maximumIterations: Int = 50,
            stepTolerance: Double = 1e-6,
            initialDamping: Double = 1e-3
        ) {
            self.estimator = estimator
            self.dimension = dimension
            self.rejectsOutliers = rejectsOutliers
            self.outlierSignificance = outlierSignificance
            self.maximumRejections = maximumRejections
            self.outline = outline
            self.floorElevations = floorElevations
            self.linearSolver = linearSolver
            self.usesSecondOrder = usesSecondOrder
            self.maximumIterations = maximumIterations
            self.stepTolerance = stepTolerance
            self.initialDamping = initialDamping
        }

        /// Checks every setting.
        /// - Throws: ``TrilaterationError/invalidConfiguration(detail:)`` naming the first
        ///   setting out of range.
        public func validate() throws(TrilaterationError) {
            if case .planar(let h) = dimension, !h.isFinite {
                throw .invalidConfiguration(detail: "receiverHeight must be finite, got \(h)")
            }
            guard outlierSignificance > 0, outlierSignificance < 1 else {
                throw .invalidConfiguration(detail: "outlierSignificance must be in (0, 1), got \(outlierSignificance)")
            }
            guard maximumRejections >= 0 else {
                throw .invalidConfiguration(detail: "maximumRejections must be ≥ 0, got \(maximumRejections)")
            }
            guard maximumIterations >= 1 else {
                throw .invalidConfiguration(detail: "maximumIterations must be ≥ 1, got \(maximumIterations)")
            }
            guard stepTolerance > 0, stepTolerance.isFinite else {
                throw .invalidConfiguration(detail: "stepTolerance must be positive and finite, got \(stepTolerance)")
            }
            guard initialDamping > 0, initialDamping.isFinite else {
                throw .invalidConfiguration(detail: "initialDamping must be positive and finite, got \(initialDamping)")
            }
            if let commonOffsetSigma, !(commonOffsetSigma.isFinite && commonOffsetSigma > 0 && commonOffsetSigma <= 100)
            {
                throw .invalidConfiguration(
                    detail: "commonOffsetSigma must be in (0, 100] dB, got \(commonOffsetSigma)")
            }
            if let centroidPriorScale,
                !(centroidPriorScale.isFinite && centroidPriorScale > 0 && centroidPriorScale <= 1000)
            {
                throw .invalidConfiguration(
                    detail: "centroidPriorScale must be in (0, 1000], got \(centroidPriorScale)")
            }
            guard centroidPriorBeacons >= 1 else {
                throw .invalidConfiguration(detail: "centroidPriorBeacons must be ≥ 1, got \(centroidPriorBeacons)")
            }
            guard fallbackVarianceFactor.isFinite, fallbackVarianceFactor > 0 else {
                throw .invalidConfiguration(
                    detail: "fallbackVarianceFactor must be a positive number, got \(fallbackVarianceFactor)")
            }
            if let detection, !detection.isFinite {
                throw .invalidConfiguration(detail: "detection: every coefficient must be finite, got \(detection)")
            }
            // Checked only where they are used, with a curve to use them with (a solve validates
            // its configuration, and a floor's beacons would cost every solve a pass over them).
            if fallback == .detectionPosterior && detection != nil {
                for beacon in detectionBeacons where !(beacon.x.isFinite && beacon.y.isFinite && beacon.z.isFinite) {
                    throw .invalidConfiguration(
                        detail: "detectionBeacons: every coordinate must be finite, got \(beacon)")
                }
            }
            for (level, elevation) in floorElevations where !elevation.isFinite {
                throw .invalidConfiguration(detail: "floor elevation of level \(level) must be finite")
            }
        }
    }
}

extension TrilaterationSolver.Configuration {
    private enum CodingKeys: String, CodingKey {
        case estimator, dimension, rejectsOutliers, outlierSignificance, maximumRejections, outline
        case floorElevations, linearSolver, usesSecondOrder, maximumIterations, stepTolerance, initialDamping
        case commonOffsetSigma, centroidPriorScale, centroidPriorBeacons, fallback, detection, detectionBeacons
        case fallbackVarianceFactor
    }

    /// Decodes a configuration; a key that is missing takes its default, so that JSON written by
    /// an earlier version (without the settings added since) still reads.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init()
        func read<T: Decodable>(_ key: CodingKeys, _ value: inout T) throws {
            if let decoded = try c.decodeIfPresent(T.self, forKey: key) { value = decoded }
        }
        try read(.estimator, &estimator)
        try read(.dimension, &dimension)
        try read(.rejectsOutliers, &rejectsOutliers)
        try read(.outlierSignificance, &outlierSignificance)
        try read(.maximumRejections, &maximumRejections)
        outline = try c.decodeIfPresent(Polygon.self, forKey: .outline)
        try read(.floorElevations, &floorElevations)
        try read(.linearSolver, &linearSolver)
        try read(.usesSecondOrder, &usesSecondOrder)
        try read(.maximumIterations, &maximumIterations)
        try read(.stepTolerance, &stepTolerance)
        try read(.initialDamping, &initialDamping)
        commonOffsetSigma = try c.decodeIfPresent(Double.self, forKey: .commonOffsetSigma)
        centroidPriorScale = try c.decodeIfPresent(Double.self, forKey: .centroidPriorScale)
        try read(.centroidPriorBeacons, &centroidPriorBeacons)
        try read(.fallback, &fallback)
        detection = try c.decodeIfPresent(DetectionModel.self, forKey: .detection)
        try read(.detectionBeacons, &detectionBeacons)
        try read(.fallbackVarianceFactor, &fallbackVarianceFactor)
    }
}
