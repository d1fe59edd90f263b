import BeaconModel
import Foundation
import LinearAlgebra
import Ranging

/// The Kalman tracker the engine runs: the walker's position and velocity together with the
/// phone's RSSI offset and a shadowing bias per beacon heard, so that the two errors every real
/// deployment has are estimated instead of believed away.
///
/// State (n = 5 + K):
///
///     s = (x, y, vx, vy, Δ, b₁ … b_K)
///
/// - (x, y, vx, vy): metres and m/s, with the motion model of ``KalmanTracker`` (integrated
///   Ornstein–Uhlenbeck velocity by default; ``TrackerConfiguration``);
/// - Δ: the device offset in dB (``DeviceOffsetModel``), a random walk;
/// - bⱼ: the shadowing bias of the beacon in slot j, dB (``ShadowingModel``), Gauss–Markov with
///   correlation time τ: bⱼ(t + dt) = e^{−dt/τ} bⱼ(t) + noise of variance sσ²(1 − e^{−2dt/τ}).
///
/// A sample of beacon i with slot j, taken at tᵢ, measures
///
///     zᵢ = P₀ − 10 n log₁₀ dᵢ(x, y) + Δ + bⱼ(tᵢ) + wᵢ,   wᵢ ~ N(0, λ(1 − s)σ²),
///
/// with λ the learned noise scale (as in ``KalmanTracker``). Slots are given to beacons as they
/// are heard; a slot whose beacon has not been heard for the longest time is handed to a new
/// beacon when all K are taken. Giving a slot up is marginalisation (its row and column stop
/// mattering) and taking one is a fresh state N(0, λsσ²): both exact for the model, so K only
/// bounds the cost, O(n³) per epoch.
///
/// The tracker is fed one epoch of samples at a time (``update(_:at:)``): a Gauss–Newton
/// maximum-a-posteriori step in information form over the whole state, as ``KalmanTracker``'s
/// epoch update does over four. It records its steps for ``AugmentedSmoother`` when
/// ``TrackerConfiguration/recordsHistory`` is on.
///
/// Storage is allocated when the track starts; predicting and fusing an epoch allocate nothing
/// (scratch space is kept between epochs), unless history is recorded.
public struct AugmentedTracker: Sendable {
    /// The motion and gating settings (shared with ``KalmanTracker``).
    public private(set) var configuration: TrackerConfiguration
    /// The device-offset model.
    public let offsetModel: DeviceOffsetModel
    /// The shadowing model.
    public let shadowing: ShadowingModel
    /// The time of the state, seconds.
    public internal(set) var time: Double
    /// The floor level the track is on, if known.
    public private(set) var level: Int?
    /// Elevation of the current floor, metres.
    public private(set) var floorElevation: Double
    /// The outline the estimate is kept inside, if any.
    public private(set) var outline: Polygon?
    /// The walls the estimate's steps do not cross (the floor's; initially the configuration's).
    public private(set) var walls: FloorWalls
    /// Every step so far, when ``TrackerConfiguration/recordsHistory`` is on (else empty).
    public private(set) var history: [AugmentedStep] = []
    /// Steps given up by ``discardHistory(before:)``, whose storage the next recorded steps
    /// reuse, so that a bounded history (fixed-lag smoothing) allocates nothing per step.
    private var spareSteps: [AugmentedStep] = []
    /// The learned scale λ ≥ 1 of every sample's variance σ² (see
    /// ``TrackerConfiguration/maximumNoiseScale``).
    public var noiseScale: Double { monitor.noiseScale }

    /// The log-evidence of the last epoch's samples, log p(z | earlier samples) under this
    /// tracker's model (nats; see ``update(_:at:)-(ArraySlice<RSSIMeasurement>,_)``): the weight a
    /// bank of trackers with different models gives each.
    public internal(set) var lastLogEvidence = 0.0

    /// The motion-mode probabilities at ``time`` (see ``TrackerConfiguration/motionModes``;
    /// without modes they stay at their start).
    public internal(set) var modeProbabilities: ModeProbabilities

    /// The state vector (x, y, vx, vy, Δ, b₁ … b_K).
    public internal(set) var state: [Double]
    /// The state covariance.
    public internal(set) var covariance: SquareMatrix
    /// The beacon key held by each bias slot (nil: free).
    public var slotKeys: [Int?] { slots.key.map { $0 < 0 ? nil : $0 } }

    var slots: BiasSlots
    /// The last prediction's kinematic F entries (f_pv, f_vv), the mixture's with motion modes:
    /// what the smoother links the recorded steps with.
    var stepCoefficients = (positionVelocity: 0.0, velocity: 1.0)
    /// The phone's activity hint for the next prediction interval (``observe(_:)``), consumed by
    /// the next ``predict(to:)``.
    var pendingActivity: ActivityHint?
    var fixRejections = 0
    var monitor = InnovationMonitor()
    let fixGate: Double
    let rssiGate: Double
    /// Scratch space of the epoch update, kept so that an epoch allocates nothing.
    var scratch: Scratch

    /// Index of Δ in the state.
    static let offsetIndex = 4
    /// Index of the first bias slot in the state.
    static let biasIndex = 5
    /// Variance given to a free bias slot: any positive value (a free slot is an independent
    /// state that no sample measures).
    static let freeSlotVariance = 1.0

    /// Starts a track at a first position fix.
    ///
    /// - Parameters:
    ///   - first: the first fix (seconds, metres, m²); its level, if any, becomes the track's.
    ///   - configuration: motion and gating (validated).
    ///   - offset: the device-offset model (validated).
    ///   - shadowing: the shadowing model (validated).
    ///   - floorElevation: elevation of the fix's floor, metres.
    ///   - offsetEstimate: an offset estimate to start from instead of the model's prior (dB and
    ///     dB²), for example that of an earlier track of the same device.
    public init(
        first: PositionMeasurement, configuration: TrackerConfiguration = TrackerConfiguration(),
        offset: DeviceOffsetModel = DeviceOffsetModel(), shadowing: ShadowingModel = ShadowingModel(),
        floorElevation: Double = 0,
        offsetEstimate: (value: Double, variance: Double)? = nil
    ) throws(TrackingError) {
        try configuration.validate()
        try offset.validate()
        try shadowing.validate()
        try first.validate()
        guard floorElevation.isFinite else { throw .nonFiniteInput(field: "floorElevation") }
        try TrackingError.checkCoordinate(floorElevation, "floorElevation")
        self.configuration = configuration
        offsetModel = offset
        self.shadowing = shadowing
        fixGate = configuration.fixGate
        rssiGate = configuration.rssiGate
        outline = configuration.outline
        walls = configuration.walls ?? .none
        self.floorElevation = floorElevation
        modeProbabilities =
            configuration.motionModes?.initial ?? ModeProbabilities(standing: 1, strolling: 1, walking: 1)
        time = first.time
        level = first.level
        let slotCount = shadowing.correlatedShare > 0 ? shadowing.maximumStates : 0
        let n = Self.biasIndex + slotCount
        state = Array(repeating: 0, count: n)
        covariance = SquareMatrix(size: n)
        slots = BiasSlots(count: slotCount)
        scratch = Scratch(size: n, slots: slotCount)
        state[Self.offsetIndex] = offset.initial
        covariance[Self.offsetIndex, Self.offsetIndex] = offset.priorSigma.map { $0 * $0 } ?? Self.freeSlotVariance
        if offset.isEstimated, let offsetEstimate, offsetEstimate.value.isFinite,
            offsetEstimate.variance.isFinite, offsetEstimate.variance > 0
        {
            state[Self.offsetIndex] = offsetEstimate.value
            covariance[Self.offsetIndex, Self.offsetIndex] = offsetEstimate.variance
        }
        for j in 0..<slotCount { covariance[Self.biasIndex + j, Self.biasIndex + j] = Self.freeSlotVariance }
        start(at: first)
    }

    // MARK: - Reading the state

    /// The current estimate (time, position, velocity, horizontal covariance, level).
    public var estimate: TrackEstimate {
        TrackEstimate(
            time: time, position: Point2D(x: state[0], y: state[1]),
            velocity: Point2D(x: state[2], y: state[3]),
            covarianceXX: covariance[0, 0], covarianceXY: covariance[0, 1],
            covarianceYY: covariance[1, 1], level: level)
    }

    /// The estimated device offset Δ, dB (the fixed value when it is not estimated).
    public var deviceOffset: Double { state[Self.offsetIndex] }

    /// The variance of the device offset, dB² (0 when it is not estimated).
    public var deviceOffsetVariance: Double {
        offsetModel.isEstimated ? covariance[Self.offsetIndex, Self.offsetIndex] : 0
    }

    // MARK: - Predict

    /// Predicts the state to `time` (seconds): s = F s, P = F P Fᵀ + Q (see the type's
    /// documentation), then keeps the position inside the outline.
    ///
    /// - Throws: `nonFiniteInput` for NaN/∞, `timestampBeforeState` for a time before the state.
    public mutating func predict(to time: Double) throws(TrackingError) {
        guard time.isFinite else { throw .nonFiniteInput(field: "time") }
        try TrackingError.checkTime(time, "time")
        guard time >= self.time else { throw .timestampBeforeState(time: time, stateTime: self.time) }
        guard time > self.time else { return }
        prepareScratch()
        for j in scratch.renew.indices { scratch.renew[j] = false }
        let dt = time - self.time
        let transition = self.transition
        let before = Point2D(x: state[0], y: state[1])
        let coast = transition.propagate(
            &state, &covariance, dt: dt, renew: scratch.renew, slots: slots,
            noiseScale: monitor.noiseScale)
        modeProbabilities = transition.predictedProbabilities(over: dt)
        pendingActivity = nil
        let step = transition.step(dt)
        stepCoefficients = (step.positionVelocity, step.velocity)
        self.time = time
        limits.constrain(&state, from: before)
        if configuration.recordsHistory {
            recordStep(
                interval: dt, renew: scratch.renew, predictedState: state, predictedCovariance: covariance,
                startsSegment: coast)
        }
    }

    /// The prediction step with this tracker's models.
    var transition: AugmentedTransition {
        let motion = MotionModel(
            density: configuration.accelerationDensity,
            correlationTime: configuration.velocityCorrelationTime)
        return AugmentedTransition(
            motion: motion,
            modes: configuration.motionModes.map { m in
                (m.models(walking: motion), (m.dwellTimes.standing, m.dwellTimes.strolling, m.dwellTimes.walking))
            },
            probabilities: modeProbabilities,
            activity: pendingActivity,
            offsetDrift: offsetModel.isEstimated ? offsetModel.drift : 0,
            correlationTime: shadowing.correlationTime,
            maximumPositionVariance: configuration.maximumPositionVariance,
            restingVelocityVariance: configuration.initialVelocitySigma * configuration.initialVelocitySigma)
    }

    /// The speed limit and the outline in force.
    var limits: MotionLimits {
        MotionLimits(
            maximumSpeed: configuration.maximumSpeed, outline: outline, margin: configuration.outlineMargin,
            walls: walls)
    }

    // MARK: - Verify against a fix

    /// Checks the track against an independent position fix without fusing it, and re-starts
    /// the track at the fix when ``TrackerConfiguration/fixRejectionsBeforeReset`` fixes in a row
    /// fail the 2-degree-of-freedom gate (see ``KalmanTracker/verify(against:)``). The device
    /// offset survives a restart; the bias slots are freed.
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

    // MARK: - Floors and restarts

    /// Moves the track to another floor at `time` (seconds): position kept, velocity zeroed,
    /// position variance raised to at least ``TrackerConfiguration/resetPositionVariance``, bias
    /// slots freed (the new floor's beacons are others), device offset kept.
    public mutating func changeLevel(
        to level: Int, elevation: Double, outline: Polygon?, walls: FloorWalls = .none,
        at time: Double
    ) throws(TrackingError) {
        guard elevation.isFinite else { throw .nonFiniteInput(field: "elevation") }
        try TrackingError.checkCoordinate(elevation, "elevation")
        try predict(to: time)
        self.level = level
        floorElevation = elevation
        self.outline = outline
        self.walls = walls
        let v0 = configuration.initialVelocitySigma * configuration.initialVelocitySigma
        let rv = configuration.resetPositionVariance
        let kept = (max(covariance[0, 0], rv), max(covariance[1, 1], rv))
        state[2] = 0
        state[3] = 0
        covariance.resetKinematics(variances: (kept.0, kept.1, v0, v0))
        freeAllSlots()
        fixRejections = 0
        monitor.restart()
        limits.constrain(&state)
        markSegmentStart()
    }

    /// Sets position and covariance from a fix, velocity zero; keeps Δ; frees the bias slots.
    private mutating func start(at m: PositionMeasurement) {
        let v0 = configuration.initialVelocitySigma * configuration.initialVelocitySigma
        time = m.time
        if m.level != nil { level = m.level }
        state[0] = m.x
        state[1] = m.y
        state[2] = 0
        state[3] = 0
        covariance.resetKinematics(variances: (m.covarianceXX, m.covarianceYY, v0, v0))
        covariance[0, 1] = m.covarianceXY
        covariance[1, 0] = m.covarianceXY
        freeAllSlots()
        fixRejections = 0
        monitor.restart()
        limits.constrain(&state)
        markSegmentStart()
    }

    /// Gives every bias slot up (marginalises the biases).
    private mutating func freeAllSlots() {
        let b0 = Self.biasIndex
        for j in 0..<slots.count {
            for c in 0..<covariance.size {
                covariance[b0 + j, c] = 0
                covariance[c, b0 + j] = 0
            }
            covariance[b0 + j, b0 + j] = Self.freeSlotVariance
            state[b0 + j] = 0
        }
        slots.freeAll()
    }

    // MARK: - Scratch space

    /// Frees the scratch space of the epoch update (four n × n matrices and a few vectors, n the
    /// state's size) and the spare history steps; the next prediction or update allocates them
    /// again. For a track that stays idle for a while: the estimates are unchanged, since every
    /// update fills its scratch before reading it.
    public mutating func releaseScratch() {
        scratch = .none
        spareSteps = []
    }

    /// Allocates the scratch space again after ``releaseScratch()`` (nothing to do otherwise).
    mutating func prepareScratch() {
        guard scratch.xPrior.count != state.count else { return }
        scratch = Scratch(size: state.count, slots: slots.count)
    }

    // MARK: - Constraints and history

    /// Appends a step (prior at the current time; the posterior is the current state).
    mutating func recordStep(
        interval: Double, renew: [Bool], predictedState: [Double],
        predictedCovariance: SquareMatrix, startsSegment: Bool
    ) {
        let (fpv, fvv) = stepCoefficients
        let rho = shadowing.correlation(over: interval)
        let starts = startsSegment || history.isEmpty
        // A spare step of the same shape is refilled in place (it is uniquely referenced once
        // popped, so the element writes do not copy).
        guard var step = spareSteps.popLast(), step.state.count == state.count,
            step.covariance.size == covariance.size, step.biasCorrelation.count == renew.count
        else {
            history.append(
                AugmentedStep(
                    time: time, positionVelocity: fpv, velocity: fvv,
                    biasCorrelation: renew.map { $0 ? 0 : rho },
                    predictedState: predictedState, predictedCovariance: predictedCovariance,
                    state: state, covariance: covariance, startsSegment: starts, level: level))
            return
        }
        step.time = time
        step.positionVelocity = fpv
        step.velocity = fvv
        for j in renew.indices { step.biasCorrelation[j] = renew[j] ? 0 : rho }
        step.predictedState.assign(predictedState)
        step.predictedCovariance.assign(predictedCovariance)
        step.state.assign(state)
        step.covariance.assign(covariance)
        step.startsSegment = starts
        step.level = level
        step.gainState = .unknown
        history.append(step)
    }

    /// Forgets the recorded steps before `time`, seconds (fixed-lag smoothing keeps only the
    /// steps of its window; the first step kept is smoothed without a predecessor, as the first
    /// step of a track is). Does not allocate.
    public mutating func discardHistory(before time: Double) {
        let stale = history.firstIndex { $0.time >= time } ?? history.count
        guard stale > 0 else { return }
        for k in 0..<stale { spareSteps.append(history[k]) }
        history.removeFirst(stale)
    }

    /// Computes the smoother gain of every recorded link that has none yet (see
    /// ``AugmentedStep/gainTransposed``), with `workspace`'s buffers: each link's O(n³) solve
    /// once, however many epochs the step stays in a fixed-lag window.
    mutating func prepareSmootherGains(_ workspace: inout AugmentedSmoother.Workspace) {
        guard history.count >= 2 else { return }
        for k in 0..<(history.count - 1) where history[k].gainState == .unknown {
            let next = history[k + 1]
            guard !next.startsSegment, AugmentedSmoother.gain(history[k], next, &workspace) else {
                history[k].gainState = .none
                continue
            }
            if history[k].gainTransposed.size != workspace.gainTransposed.size {
                history[k].gainTransposed = SquareMatrix(size: workspace.gainTransposed.size)
            }
            history[k].gainTransposed.assign(workspace.gainTransposed)
            history[k].gainState = .ready
        }
    }

    /// Marks the current state as the start of a segment in the history.
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
            history.append(
                AugmentedStep(
                    time: time, positionVelocity: 0, velocity: 1,
                    biasCorrelation: Array(repeating: 1, count: slots.count),
                    predictedState: state, predictedCovariance: covariance,
                    state: state, covariance: covariance, startsSegment: true, level: level))
        }
    }
}

extension AugmentedTracker {
    /// Storage the epoch update works in, allocated with the tracker and reused.
    struct Scratch: Sendable {
        var xPrior: [Double]
        var xPost: [Double]
        var rhs: [Double]
        var pPrior: SquareMatrix
        var priorInfo: SquareMatrix
        var info: SquareMatrix
        var pPost: SquareMatrix
        var slots: BiasSlots
        var renew: [Bool]
        /// Each sample's bias state index (−1: none); grows to the largest epoch seen.
        var sampleSlot: [Int] = []
        /// Whether each sample passed the gate; grows to the largest epoch seen.
        var accepted: [Bool] = []
        /// Each sample's bias correlation e^{−τ/τ_b} with the epoch's end.
        var sampleCorrelation: [Double] = []
        /// Each sample's row at the prior (reused by the first Gauss–Newton iteration).
        var rows: [SampleRow] = []
        /// The epoch's kinematic F entries (f_pv, f_vv).
        var coefficients = (0.0, 1.0)

        /// Scratch for a state of size `n` with `count` bias slots, its per-sample buffers
        /// reserved for `capacity` samples.
        init(size n: Int, slots count: Int, reserving capacity: Int = 64) {
            xPrior = Array(repeating: 0, count: n)
            xPost = xPrior
            rhs = xPrior
            pPrior = SquareMatrix(size: n)
            priorInfo = pPrior
            info = pPrior
            pPost = pPrior
            slots = BiasSlots(count: count)
            renew = Array(repeating: false, count: count)
            sampleSlot.reserveCapacity(capacity)
            accepted.reserveCapacity(capacity)
            sampleCorrelation.reserveCapacity(capacity)
            rows.reserveCapacity(capacity)
        }
    }
}
