import BeaconModel
import Foundation
import LinearAlgebra
import Ranging

/// A Kalman filter for a walking person in the horizontal plane.
///
/// State x = (x, y, vx, vy) in metres and metres per second, covariance P (4 × 4). Between
/// measurements the state follows, per axis, a velocity driven by white acceleration noise of
/// spectral density q (``TrackerConfiguration/accelerationDensity``, m²/s³): the constant-velocity
/// model when ``TrackerConfiguration/velocityCorrelationTime`` is nil,
///
///     F(dt) = [[1, 0, dt, 0], [0, 1, 0, dt], [0, 0, 1, 0], [0, 0, 0, 1]]
///     Q(dt) = q [[dt³/3, 0, dt²/2, 0], [0, dt³/3, 0, dt²/2], [dt²/2, 0, dt, 0], [0, dt²/2, 0, dt]]
///
/// or, by default, an integrated Ornstein–Uhlenbeck velocity with correlation time τ whose
/// prediction decays as e^{−dt/τ} (closed forms in Docs/Reference/Tracking.md).
///
/// It fuses two kinds of measurement:
/// - a position fix (``PositionMeasurement``): H = [I₂ 0], R = the fix's covariance;
/// - a single RSSI sample at its own time (``RSSIMeasurement``), by the extended Kalman filter
///   with h(x) = P₀ − 10 n log₁₀ d(x), d the 3-D distance from (x, y, floor elevation +
///   receiver height) to the beacon, R = σ².
///
/// Every update gates the innovation ν by its squared Mahalanobis distance νᵀ S⁻¹ ν against the
/// chi-square quantile of ``TrackerConfiguration/gateProbability``; S is solved (Cholesky or a
/// scalar division), never inverted. The covariance update is the Joseph form
/// P = (I − K H) P (I − K H)ᵀ + K R Kᵀ, symmetrised, so P stays symmetric positive-definite.
///
/// Measurements must come in time order: a timestamp older than the state is rejected with
/// ``TrackingError/timestampBeforeState(time:stateTime:)`` (no reorder buffer; equal times are
/// fine). Every error leaves the tracker unchanged.
///
/// Complexity: O(1) time and no heap allocation per predict or single-measurement update
/// (unless history is recorded, which appends one ``TrackStep`` per distinct time). Measured in
/// release on one core: about 0.2 µs per RSSI sample (5 M samples/s).
public struct KalmanTracker: Sendable {
    /// The tuning this tracker runs with.
    public private(set) var configuration: TrackerConfiguration
    /// The time of the state, seconds.
    public private(set) var time: Double
    /// The state (x, y, vx, vy): metres and metres per second.
    public internal(set) var state: Vector4
    /// The 4 × 4 state covariance (m², m²/s, m²/s²).
    public internal(set) var covariance: Matrix4
    /// The floor level the track is on, if known.
    public private(set) var level: Int?
    /// Elevation of the current floor, metres: the receiver is at floorElevation +
    /// ``TrackerConfiguration/receiverHeight``.
    public private(set) var floorElevation: Double
    /// The outline the estimate is kept inside, if any (initially the configuration's).
    public private(set) var outline: Polygon?
    /// Every step so far, when ``TrackerConfiguration/recordsHistory`` is on (else empty).
    public private(set) var history: [TrackStep] = []

    private var fixRejections = 0
    /// The running NIS mean, noise scale λ and RSSI rejections (see ``InnovationMonitor``).
    var monitor = InnovationMonitor()
    /// The learned scale λ ≥ 1 of every RSSI sample's variance σ² (see
    /// ``TrackerConfiguration/maximumNoiseScale``).
    public var noiseScale: Double { monitor.noiseScale }
    private let fixGate: Double
    private let rssiGate: Double

    /// Starts a track at a first position fix: position and its covariance from the fix,
    /// velocity zero with standard deviation ``TrackerConfiguration/initialVelocitySigma``.
    ///
    /// - Parameters:
    ///   - first: the first fix (seconds, metres, m²); its level, if any, becomes the track's.
    ///   - configuration: the tuning (validated).
    ///   - floorElevation: elevation of the fix's floor, metres (default 0).
    public init(
        first: PositionMeasurement, configuration: TrackerConfiguration = TrackerConfiguration(),
        floorElevation: Double = 0
    ) throws(TrackingError) {
        try configuration.validate()
        try first.validate()
        guard floorElevation.isFinite else { throw .nonFiniteInput(field: "floorElevation") }
        try TrackingError.checkCoordinate(floorElevation, "floorElevation")
        self.configuration = configuration
        self.fixGate = configuration.fixGate
        self.rssiGate = configuration.rssiGate
        self.outline = configuration.outline
        self.floorElevation = floorElevation
        self.time = first.time
        self.level = first.level
        self.state = .zero
        self.covariance = .identity
        start(at: first)
    }

    /// The current estimate (time, position, velocity, horizontal covariance, level).
    public var estimate: TrackEstimate {
        TrackEstimate(time: time, state: state, covariance: covariance, level: level)
    }

    /// The estimate predicted to `time` (seconds) without changing the tracker.
    public func estimate(at time: Double) throws(TrackingError) -> TrackEstimate {
        var copy = self
        copy.configuration.recordsHistory = false
        copy.history = []
        try copy.predict(to: time)
        return copy.estimate
    }

    // MARK: - Predict

    /// Predicts the state to `time` (seconds): x = F x, P = F P Fᵀ + Q. A gap grows the
    /// covariance (position variance ∝ q dt³/3 for constant velocity); past ``TrackerConfiguration/maximumPositionVariance``
    /// the track stops coasting (velocity zero, covariance capped). Predicting to the current time
    /// does nothing.
    ///
    /// - Throws: `nonFiniteInput` for NaN/∞, `timestampBeforeState` for a time before the state.
    public mutating func predict(to time: Double) throws(TrackingError) {
        guard time.isFinite else { throw .nonFiniteInput(field: "time") }
        try TrackingError.checkTime(time, "time")
        guard time >= self.time else { throw .timestampBeforeState(time: time, stateTime: self.time) }
        let dt = time - self.time
        guard dt > 0 else { return }
        let motion = MotionModel(
            density: configuration.accelerationDensity,
            correlationTime: configuration.velocityCorrelationTime)
        // x⁻ = F x
        let f = motion.transition(dt)
        var x = f * state
        // P⁻ = F P Fᵀ + Q
        var p = f * covariance * f.transposed
        let (qpp, qpv, qvv) = motion.noise(dt)
        p.r0 += Vector4(qpp, 0, qpv, 0)
        p.r1 += Vector4(0, qpp, 0, qpv)
        p.r2 += Vector4(qpv, 0, qvv, 0)
        p.r3 += Vector4(0, qpv, 0, qvv)
        p = p.symmetrized
        var coastLimit = false
        let cap = configuration.maximumPositionVariance
        if p[0, 0] > cap || p[1, 1] > cap {
            // Coast limit: the motion model no longer says anything useful about where the
            // walker is; stop extrapolating and keep a bounded, honest covariance.
            let v0 = configuration.initialVelocitySigma * configuration.initialVelocitySigma
            x[2] = 0
            x[3] = 0
            p = .diagonal(Vector4(cap, cap, v0, v0))
            coastLimit = true
        }
        self.time = time
        state = x
        covariance = p
        if let outline { constrain(to: outline) }
        if configuration.recordsHistory {
            history.append(
                TrackStep(
                    time: time, interval: dt, transition: f, predictedState: state, predictedCovariance: covariance,
                    state: state, covariance: covariance, startsSegment: coastLimit, level: level))
        }
    }

    /// The transition matrix F(dt) of this tracker's motion model.
    func transition(_ dt: Double) -> Matrix4 {
        MotionModel(
            density: configuration.accelerationDensity,
            correlationTime: configuration.velocityCorrelationTime
        ).transition(dt)
    }

    // MARK: - Position update

    /// Fuses a position fix (Kalman update with H = [I₂ 0] and R = the fix's covariance), after
    /// predicting to its time.
    ///
    /// A fix whose squared Mahalanobis distance exceeds the 2-degree-of-freedom gate is ignored
    /// (`.gated`); after ``TrackerConfiguration/fixRejectionsBeforeReset`` rejections in a row the
    /// track is re-initialised at the fix (`.reset`): a lost track recovers instead of drifting.
    /// A fix with a level different from the track's re-initialises the track at the fix.
    ///
    /// - Throws: `nonFiniteInput`, `invalidCovariance`, `timestampBeforeState`.
    @discardableResult
    public mutating func update(_ m: PositionMeasurement) throws(TrackingError) -> UpdateOutcome {
        try m.validate()
        try predict(to: m.time)
        if let newLevel = m.level, let level, newLevel != level {
            start(at: m)
            return .reset
        }
        let p = covariance
        // ν = z − H x
        let nu0 = m.x - state[0], nu1 = m.y - state[1]
        // S = H P Hᵀ + R (2 × 2), factored S = L Lᵀ.
        let s00 = p[0, 0] + m.covarianceXX, s01 = p[0, 1] + m.covarianceXY, s11 = p[1, 1] + m.covarianceYY
        guard let chol = Cholesky2(s00, s01, s11) else { throw .covarianceNotPositiveDefinite }
        // d² = νᵀ S⁻¹ ν, by solving S w = ν.
        let w = chol.solve(nu0, nu1)
        let d2 = nu0 * w.0 + nu1 * w.1
        if d2 > fixGate {
            fixRejections += 1
            if fixRejections >= configuration.fixRejectionsBeforeReset {
                start(at: m)
                return .reset
            }
            return .gated(mahalanobisSquared: d2, consecutive: fixRejections)
        }
        fixRejections = 0
        // K = P Hᵀ S⁻¹: row j of K solves S kⱼ = (P Hᵀ)ⱼ = (P[j,0], P[j,1]).
        var k0 = Vector4.zero, k1 = Vector4.zero
        for j in 0..<4 {
            let kj = chol.solve(p[j, 0], p[j, 1])
            k0[j] = kj.0
            k1[j] = kj.1
        }
        // x = x + K ν
        let x = state + k0 * nu0 + k1 * nu1
        // Joseph form: P = (I − K H) P (I − K H)ᵀ + K R Kᵀ.
        let a = Matrix4.identity - Matrix4.outer(k0, Vector4(1, 0, 0, 0)) - Matrix4.outer(k1, Vector4(0, 1, 0, 0))
        var kr = m.covarianceXX * Matrix4.outer(k0, k0) + m.covarianceYY * Matrix4.outer(k1, k1)
        kr = kr + m.covarianceXY * (Matrix4.outer(k0, k1) + Matrix4.outer(k1, k0))
        try commit(x, (a * p * a.transposed + kr).symmetrized, level: m.level)
        return .accepted(mahalanobisSquared: d2)
    }

    /// Checks the track against an independent position fix without fusing it, and re-initialises
    /// the track at the fix when ``TrackerConfiguration/fixRejectionsBeforeReset`` fixes in a row
    /// fail the Mahalanobis gate. Use it when the track is fed by RSSI samples and the fixes come
    /// from the same samples: fusing both would count the samples twice, but the fix, solved from
    /// scratch each epoch, still detects a track that sits at a wrong (e.g. mirrored) position.
    ///
    /// Returns `.accepted` when the fix agrees (the state is unchanged), `.gated` when it
    /// disagrees, `.reset` when the track was re-initialised at it. Predicts to the fix's time.
    ///
    /// - Throws: `nonFiniteInput`, `invalidCovariance`, `timestampBeforeState`.
    @discardableResult
    public mutating func verify(against m: PositionMeasurement) throws(TrackingError) -> UpdateOutcome {
        try m.validate()
        try predict(to: m.time)
        let d2 = try m.mahalanobisSquared(
            fromX: state[0], y: state[1], xx: covariance[0, 0],
            xy: covariance[0, 1], yy: covariance[1, 1])
        let outcome = UpdateOutcome.verdict(
            mahalanobisSquared: d2, gate: fixGate, rejections: &fixRejections,
            limit: configuration.fixRejectionsBeforeReset)
        if outcome == .reset { start(at: m) }
        return outcome
    }

    // MARK: - RSSI update (EKF)

    /// Fuses one RSSI sample at its own time by the extended Kalman filter, after predicting to
    /// its time:
    ///
    ///     h(x) = P₀ − 10 n log₁₀ d,   d = √((x − bₓ)² + (y − b_y)² + (z_r − b_z)²)
    ///     H = ∂h/∂x = −(10 n / ln 10) · ((x − bₓ)/d², (y − b_y)/d², 0, 0)
    ///     S = H P Hᵀ + σ²,   K = P Hᵀ / S
    ///
    /// with z_r = floor elevation + receiver height and d ≥ 1 cm. A sample whose squared
    /// Mahalanobis distance ν²/S exceeds the 1-degree-of-freedom gate is ignored (`.gated`);
    /// after ``TrackerConfiguration/rssiRejectionsBeforeReset`` in a row the position covariance
    /// is inflated to at least ``TrackerConfiguration/resetPositionVariance`` per axis, the
    /// velocity zeroed, and the sample fused (`.reset`).
    ///
    /// - Throws: `nonFiniteInput`, `implausibleRSSI` (RSSI ≥ 0), `invalidPathLossModel`,
    ///   `timestampBeforeState`.
    @discardableResult
    public mutating func update(_ s: RSSIMeasurement) throws(TrackingError) -> UpdateOutcome {
        try s.validate()
        try predict(to: s.time)
        var outcome = UpdateOutcome.accepted(mahalanobisSquared: 0)
        var (h, jacobian) = measurement(s)
        var ph = covariance * jacobian
        let r = s.model.sigma * s.model.sigma * noiseScale
        // S = H P Hᵀ + R (scalar, ≥ R > 0).
        var innovationVariance = (jacobian * ph).sum() + r
        var nu = s.rssi - h
        if nu * nu <= rssiGate * innovationVariance {
            monitor.learnNoiseScale(
                innovation: nu, predictedVariance: innovationVariance - r,
                sigma2: s.model.sigma * s.model.sigma, maximum: configuration.maximumNoiseScale)
        }
        let d2 = nu * nu / innovationVariance
        monitor.record(nis: d2)
        let inconsistent = monitor.isInconsistent(level: configuration.lostInnovationLevel)
        if d2 > rssiGate || inconsistent {
            if d2 > rssiGate { monitor.rejections += 1 }
            guard monitor.rejections >= configuration.rssiRejectionsBeforeReset || inconsistent else {
                return .gated(mahalanobisSquared: d2, consecutive: monitor.rejections)
            }
            // Lost: widen the position uncertainty, forget the velocity, then fuse this sample.
            inflateForReset()
            (h, jacobian) = measurement(s)
            ph = covariance * jacobian
            innovationVariance = (jacobian * ph).sum() + r
            nu = s.rssi - h
            outcome = .reset
        } else {
            outcome = .accepted(mahalanobisSquared: d2)
        }
        monitor.rejections = 0
        // K = P Hᵀ S⁻¹ (S is a scalar: the solve is one division by S ≥ σ² > 0).
        var k = ph / innovationVariance
        // x = x + K ν
        var x = state + k * nu
        // Iterated EKF: relinearise h at the updated state,
        // xᵢ₊₁ = x⁻ + K (z − h(xᵢ) − H (x⁻ − xᵢ)).
        let prior = state
        for _ in 1..<max(configuration.rssiIterations, 1) {
            state = x
            (h, jacobian) = measurement(s)
            ph = covariance * jacobian
            innovationVariance = (jacobian * ph).sum() + r
            k = ph / innovationVariance
            x = prior + k * (s.rssi - h - (jacobian * (prior - x)).sum())
        }
        state = prior
        // Joseph form: P = (I − K H) P (I − K H)ᵀ + K R Kᵀ.
        let a = Matrix4.identity - Matrix4.outer(k, jacobian)
        try commit(x, (a * covariance * a.transposed + r * Matrix4.outer(k, k)).symmetrized)
        return outcome
    }

    /// Takes an updated state and covariance (and level, when given), or throws leaving the
    /// tracker as it was when either is not finite or the covariance has lost its positive
    /// diagonal or horizontal determinant (numerical collapse after an extreme measurement).
    mutating func commit(_ x: Vector4, _ p: Matrix4, level newLevel: Int? = nil) throws(TrackingError) {
        guard x[0].isFinite, x[1].isFinite, x[2].isFinite, x[3].isFinite, p.isFinite,
            p[0, 0] > 0, p[1, 1] > 0, p[2, 2] > 0, p[3, 3] > 0,
            p[0, 0] * p[1, 1] - p[0, 1] * p[1, 0] > 0
        else {
            throw .covarianceNotPositiveDefinite
        }
        state = x
        covariance = p
        if let newLevel { level = newLevel }
        finishUpdate()
    }

    /// The lost-track reset of the RSSI updates: position variance raised to at least
    /// ``TrackerConfiguration/resetPositionVariance``, velocity zeroed, a new history segment.
    mutating func inflateForReset() {
        let v0 = configuration.initialVelocitySigma * configuration.initialVelocitySigma
        let rv = configuration.resetPositionVariance
        state[2] = 0
        state[3] = 0
        covariance = .diagonal(Vector4(max(covariance[0, 0], rv), max(covariance[1, 1], rv), v0, v0))
        markSegmentStart()
        monitor.restart()
    }

    /// h(x) and its Jacobian H (as a row 4-vector) for an RSSI sample at the current state.
    @inline(__always)
    private func measurement(_ s: RSSIMeasurement) -> (Double, Vector4) {
        let dx = state[0] - s.beaconPosition.x
        let dy = state[1] - s.beaconPosition.y
        let dz = floorElevation + configuration.receiverHeight - s.beaconPosition.z
        let d2 = max(dx * dx + dy * dy + dz * dz, 1e-4)
        let slope = s.model.logSlope
        let h = s.model.expectedRSSI(squaredDistance: d2)
        return (h, Vector4(-slope * dx / d2, -slope * dy / d2, 0, 0))
    }

    // MARK: - Floors, resets, constraint

    /// Moves the track to another floor at `time` (seconds): the horizontal position is kept,
    /// the velocity is zeroed (stairs and lifts turn the walker), the position variance is raised
    /// to at least ``TrackerConfiguration/resetPositionVariance`` per axis, and the history starts a
    /// new segment.
    ///
    /// - Parameters:
    ///   - level: the new level.
    ///   - elevation: the new floor's elevation, metres.
    ///   - outline: the new floor's outline to keep the estimate inside (nil: none).
    ///   - time: when the change was decided, seconds.
    public mutating func changeLevel(
        to level: Int, elevation: Double, outline: Polygon?,
        at time: Double
    ) throws(TrackingError) {
        guard elevation.isFinite else { throw .nonFiniteInput(field: "elevation") }
        try TrackingError.checkCoordinate(elevation, "elevation")
        try predict(to: time)
        let v0 = configuration.initialVelocitySigma * configuration.initialVelocitySigma
        let rv = configuration.resetPositionVariance
        self.level = level
        floorElevation = elevation
        self.outline = outline
        state[2] = 0
        state[3] = 0
        covariance = .diagonal(Vector4(max(covariance[0, 0], rv), max(covariance[1, 1], rv), v0, v0))
        fixRejections = 0
        monitor.rejections = 0
        if let outline { constrain(to: outline) }
        markSegmentStart()
    }

    /// Re-initialises the track at a fix (as ``init(first:configuration:floorElevation:)`` does),
    /// keeping the configuration, floor elevation and outline.
    ///
    /// - Throws: `nonFiniteInput`, `invalidCovariance`, `timestampBeforeState`.
    public mutating func reset(to m: PositionMeasurement) throws(TrackingError) {
        try m.validate()
        guard m.time >= time else { throw .timestampBeforeState(time: m.time, stateTime: time) }
        start(at: m)
    }

    /// Sets the state from a fix: position and covariance from it, velocity zero.
    private mutating func start(at m: PositionMeasurement) {
        let v0 = configuration.initialVelocitySigma * configuration.initialVelocitySigma
        time = m.time
        if m.level != nil { level = m.level }
        state = Vector4(m.x, m.y, 0, 0)
        covariance = Matrix4(
            Vector4(m.covarianceXX, m.covarianceXY, 0, 0),
            Vector4(m.covarianceXY, m.covarianceYY, 0, 0),
            Vector4(0, 0, v0, 0), Vector4(0, 0, 0, v0))
        fixRejections = 0
        monitor.restart()
        if let outline { constrain(to: outline) }
        if configuration.recordsHistory {
            if let last = history.last, last.time == time { history.removeLast() }
            appendSegmentStart()
        }
    }

    /// After an update: apply the outline constraint and record the posterior.
    mutating func finishUpdate() {
        let v = limits.limitSpeed(Point2D(x: state[2], y: state[3]))
        state[2] = v.x
        state[3] = v.y
        if let outline { constrain(to: outline) }
        guard configuration.recordsHistory else { return }
        if let last = history.indices.last, history[last].time == time {
            history[last].state = state
            history[last].covariance = covariance
            history[last].level = level
        } else {
            appendSegmentStart()
        }
    }

    /// Records the current state as a step of its own that starts a segment.
    private mutating func appendSegmentStart() {
        history.append(
            TrackStep(
                time: time, interval: 0, transition: .identity, predictedState: state,
                predictedCovariance: covariance, state: state, covariance: covariance,
                startsSegment: true, level: level))
    }

    /// Marks the current step as the start of a segment (the smoother does not cross it).
    private mutating func markSegmentStart() {
        guard configuration.recordsHistory else { return }
        if let last = history.indices.last, history[last].time == time {
            history[last].startsSegment = true
            history[last].predictedState = state
            history[last].predictedCovariance = covariance
            history[last].state = state
            history[last].covariance = covariance
            history[last].level = level
        } else {
            appendSegmentStart()
        }
    }

    /// Keeps the position inside `outline`: a position outside is moved to the nearest boundary
    /// point plus ``TrackerConfiguration/outlineMargin`` inwards, and the velocity loses its
    /// outward component. The covariance is left as it is (the projection only removes error).
    private mutating func constrain(to outline: Polygon) {
        let (position, velocity) = limits.keep(
            position: Point2D(x: state[0], y: state[1]),
            velocity: Point2D(x: state[2], y: state[3]))
        state = Vector4(position.x, position.y, velocity.x, velocity.y)
    }

    /// The speed limit and the outline in force (``MotionLimits``).
    private var limits: MotionLimits {
        MotionLimits(maximumSpeed: configuration.maximumSpeed, outline: outline, margin: configuration.outlineMargin)
    }
}
