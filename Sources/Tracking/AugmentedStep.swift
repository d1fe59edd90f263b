import LinearAlgebra

/// One recorded step of an ``AugmentedTracker``: the prior after predicting to `time`, the
/// posterior after the epoch's update, and the transition that led there. The
/// ``AugmentedSmoother`` runs backwards over these.
///
/// The transition F is block-diagonal: per axis [[1, f_pv], [0, f_vv]] for position and
/// velocity, 1 for the device offset, and one correlation factor per bias slot (0 where the
/// slot was given to another beacon).
public struct AugmentedStep: Sendable, Hashable {
    /// The time of the step, seconds.
    public var time: Double
    /// F's position-from-velocity entry f_pv, seconds.
    public var positionVelocity: Double
    /// F's velocity entry f_vv.
    public var velocity: Double
    /// F's entry for each bias slot.
    public var biasCorrelation: [Double]
    /// The predicted (prior) state.
    public var predictedState: [Double]
    /// The predicted (prior) covariance.
    public var predictedCovariance: SquareMatrix
    /// The filtered (posterior) state.
    public var state: [Double]
    /// The filtered (posterior) covariance.
    public var covariance: SquareMatrix
    /// Whether the step starts a new segment (start, restart, floor change, coast limit): the
    /// smoother does not link it to the step before.
    public var startsSegment: Bool
    /// The floor level at this step, if known.
    public var level: Int?
    /// The smoother's gain of the link from this step to the next, transposed: Cᵀ =
    /// (P⁻ₖ₊₁)⁻¹ F Pₖ, once ``gainState`` is `.ready` (fixed-lag smoothing computes it once and
    /// reuses it every epoch the step stays in the window).
    var gainTransposed = SquareMatrix(size: 0)
    /// Whether ``gainTransposed`` holds the link to the next step.
    var gainState = GainState.unknown

    /// The state of a step's cached smoother gain.
    enum GainState: Sendable, Hashable {
        /// Not computed yet (or the step was recorded anew).
        case unknown
        /// `gainTransposed` holds the link to the next step.
        case ready
        /// No link: the next step starts a segment, or the predicted covariance is singular.
        case none
    }
}
