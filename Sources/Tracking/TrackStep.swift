import LinearAlgebra

/// One recorded step of a ``KalmanTracker`` (when ``TrackerConfiguration/recordsHistory`` is on):
/// the prior after predicting to `time` and the posterior after every update at that time. The
/// ``RTSSmoother`` runs backwards over these.
///
/// State layout: (x, y, vx, vy) in metres and metres per second; covariances in the matching
/// units (m², m²/s, m²/s²).
public struct TrackStep: Sendable, Hashable {
    /// The time of the step, seconds.
    public var time: Double
    /// Seconds since the previous step: the transition F of this step uses it.
    public var interval: Double
    /// The transition F of this step (from the previous step's state to this step's prior).
    public var transition: Matrix4
    /// The predicted (prior) state x⁻ₖ = F xₖ₋₁.
    public var predictedState: Vector4
    /// The predicted (prior) covariance P⁻ₖ = F Pₖ₋₁ Fᵀ + Q.
    public var predictedCovariance: Matrix4
    /// The filtered (posterior) state after the updates at this time.
    public var state: Vector4
    /// The filtered (posterior) covariance.
    public var covariance: Matrix4
    /// Whether the step starts a new segment: the first step, a reset, a floor change or a coast
    /// limit. The smoother does not smooth across a segment start.
    public var startsSegment: Bool
    /// The floor level at this step, if known.
    public var level: Int?

    /// A step from its parts (units as documented on the properties).
    public init(
        time: Double, interval: Double, transition: Matrix4, predictedState: Vector4, predictedCovariance: Matrix4,
        state: Vector4, covariance: Matrix4, startsSegment: Bool, level: Int?
    ) {
        self.time = time
        self.interval = interval
        self.transition = transition
        self.predictedState = predictedState
        self.predictedCovariance = predictedCovariance
        self.state = state
        self.covariance = covariance
        self.startsSegment = startsSegment
        self.level = level
    }

    /// The filtered estimate of this step.
    public var estimate: TrackEstimate {
        TrackEstimate(time: time, state: state, covariance: covariance, level: level)
    }
}

extension TrackEstimate {
    /// An estimate from a state vector (x, y, vx, vy) and its covariance.
    init(time: Double, state: Vector4, covariance: Matrix4, level: Int?) {
        self.init(
            time: time, position: .init(x: state[0], y: state[1]),
            velocity: .init(x: state[2], y: state[3]),
            covarianceXX: covariance[0, 0], covarianceXY: covariance[0, 1],
            covarianceYY: covariance[1, 1], level: level)
    }
}
