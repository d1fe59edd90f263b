import BeaconModel
import LinearAlgebra

/// One position estimate from one set of beacon observations.
///
/// A `Fix` can be reused: ``TrilaterationSolver/solve(_:into:)`` refills a caller-owned fix,
/// keeping the capacity of its arrays, so that steady-state solving allocates nothing.
public struct Fix: Sendable, Hashable {
    /// Estimated position, absolute building frame, metres. In a planar fix z is the floor's
    /// elevation plus the receiver height.
    public var position: Point3D
    /// Level of the floor the fix is on (the level of the beacon heard closest).
    public var level: Int
    /// Covariance of ``position``, m², from the Fisher information of the estimator used.
    public var covariance: PositionCovariance
    /// 1-σ horizontal radius √(var x + var y), metres.
    public var accuracy: Double
    /// 1-σ error ellipse of the horizontal position.
    public var ellipse: ErrorEllipse
    /// Root mean square of the residuals of the beacons used: dB for maximum likelihood,
    /// metres for range least squares.
    public var residualRMS: Double
    /// Geometric dilution of precision √trace((HᵀH)⁻¹), H the unit line-of-sight vectors over
    /// the estimated coordinates (dimensionless; `.infinity` when the geometry does not
    /// determine the position).
    public var gdop: Double
    /// Beacons whose observations the fix uses.
    public var usedBeacons: [BeaconIdentity]
    /// Beacons left out, with the reason.
    public var rejectedBeacons: [RejectedBeacon]
    /// Levenberg–Marquardt iterations spent, over all robust re-solves.
    public var iterations: Int
    /// How the fix was obtained.
    public var status: FixStatus
    /// Whether the position was moved onto the floor outline (see
    /// ``TrilaterationSolver/Configuration/outline``).
    public var constrainedToOutline: Bool
    /// The RSSI offset common to every beacon estimated with the position, dB (observed minus
    /// modelled; see ``TrilaterationSolver/Configuration/commonOffsetSigma``); 0 when it was not
    /// estimated.
    public var commonOffset: Double = 0
    /// The variance of ``commonOffset``, dB², with the position unknown as well; 0 when it was
    /// not estimated.
    public var commonOffsetVariance: Double = 0
    /// The weighted residual sum of squares χ² = Σ wᵢ rᵢ² of the beacons used (wᵢ = mᵢ/σᵢ²
    /// for maximum likelihood, 1/σ_dᵢ² for range least squares; the common offset and the
    /// centroid prior taken out), at the position reported; 0 for a fallback.
    public var chiSquare: Double = 0
    /// The degrees of freedom of ``chiSquare``: beacons used minus the coordinates estimated
    /// minus one for a common offset; 0 when the beacons leave none (or for a fallback). With
    /// the model right, χ²/dof is about 1; its pooled value is the a-posteriori variance factor
    /// (see `PositioningEngine.Statistics.varianceFactor`).
    public var degreesOfFreedom: Int = 0
    /// The weight w = 1/s² (m⁻²) of the centroid prior the solve used
    /// (``TrilaterationSolver/Configuration/centroidPriorScale``), 0 without one. ``covariance``
    /// includes its information: w in each horizontal axis.
    public var centroidPriorWeight: Double = 0

    /// An empty fix to be filled by ``TrilaterationSolver/solve(_:into:)``; its status is
    /// ``FallbackReason/unsolved``.
    public init() {
        position = Point3D(x: 0, y: 0, z: 0)
        level = 0
        covariance = .zero
        accuracy = 0
        ellipse = .zero
        residualRMS = 0
        gdop = .infinity
        usedBeacons = []
        rejectedBeacons = []
        iterations = 0
        status = .fallback(.unsolved)
        constrainedToOutline = false
    }

    /// An empty fix whose arrays already hold room for `beacons` entries.
    public init(reservingCapacity beacons: Int) {
        self.init()
        usedBeacons.reserveCapacity(beacons)
        rejectedBeacons.reserveCapacity(beacons)
    }
}
