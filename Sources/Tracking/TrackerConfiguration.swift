import BeaconModel
import Foundation
import LinearAlgebra

/// Tuning of a ``KalmanTracker``. Every value has a default for a person walking with a phone
/// (see Docs/Reference/Tracking.md, "Tuning").
public struct TrackerConfiguration: Sendable, Hashable, Codable {
    /// The largest time magnitude the trackers accept, seconds (1e10 s: Unix times until the
    /// year 2286, as the engine's `RSSISample.timestampLimit`). Within it, a prediction over any
    /// gap moves the position by at most ``maximumSpeed`` × 2e10 m.
    public static let timeLimit = 1e10

    /// Acceleration spectral density q of the motion model's white-noise acceleration,
    /// m²/s³ per axis. Default 0.8: with the default velocity correlation time τ = 2 s the
    /// velocity's steady-state spread is √(q τ / 2) ≈ 0.9 m/s per axis, a walker's 1–1.3 m/s in
    /// any direction or standing still. For the pure constant-velocity model (τ = nil) use about
    /// 0.2–0.3 (speed changes of ±0.5 m/s within a few seconds: q ≈ Δv² / T). Valid range
    /// 10⁻⁶…10³.
    public var accelerationDensity: Double
    /// Velocity correlation time τ, seconds, or nil for the constant-velocity model. With τ the
    /// predicted velocity decays as e^{−dt/τ} (integrated Ornstein–Uhlenbeck velocity), which
    /// limits the overshoot at a walker's turns and stops. Default 2 (measured best on the
    /// simulated walks, see Docs/Evidence/TrackingStudies.md). Valid range 0.01…3600 s.
    public var velocityCorrelationTime: Double?
    /// Probability that a measurement which fits the model passes the Mahalanobis gate
    /// (0 < p < 1). The gate is the chi-square quantile at p with 1 degree of freedom for RSSI
    /// samples and 2 for position fixes. Default 0.999.
    public var gateProbability: Double
    /// Position fixes rejected in a row before the track is taken as lost and re-initialised at
    /// the next fix. Default 3 (three seconds of consistent disagreement at one fix per second).
    public var fixRejectionsBeforeReset: Int
    /// RSSI samples rejected in a row before the track is taken as lost and its position
    /// covariance inflated to ``resetPositionVariance``. Default 12 (about 0.4 s of every beacon
    /// disagreeing at 32 samples/s).
    public var rssiRejectionsBeforeReset: Int
    /// Level of the running mean of the RSSI samples' normalised innovation squared ν²/S (over
    /// about the last 64 samples, each capped at 16) above which the track is taken as lost and
    /// reset like after repeated rejections. A consistent filter keeps it near 1; a track that
    /// sits at a wrong (for example mirrored) position keeps it high while every single sample
    /// may still pass the gate. Default 2.
    public var lostInnovationLevel: Double
    /// Linearisations per RSSI sample: 1 is the extended Kalman filter, more is the iterated
    /// EKF (Gauss–Newton on the prior and the sample), which follows the curvature of the
    /// log-distance model near a beacon. Default 1.
    public var rssiIterations: Int
    /// Largest plausible speed, m/s: a faster velocity estimate is scaled down to it after each
    /// update. Default 2.5 (a brisk walk is 1.5–2 m/s). At most 1000.
    public var maximumSpeed: Double
    /// Position variance per axis set by an RSSI reset or a floor change, m². Default 9 (3 m).
    public var resetPositionVariance: Double
    /// Standard deviation of each velocity component when a track starts, m/s. Default 0.8
    /// (a walker's 1–1.3 m/s in an unknown direction).
    public var initialVelocitySigma: Double
    /// Largest position variance per axis, m², that prediction may reach. Beyond it (a long
    /// gap) the track coasts no further: the velocity is set to zero and the covariance to
    /// diag(cap, cap, v₀², v₀²) with v₀ = ``initialVelocitySigma``. Default 100 (10 m).
    public var maximumPositionVariance: Double
    /// Height of the receiver (phone) above its floor, metres: the EKF measures the distance
    /// to a beacon from (x, y, floor elevation + receiverHeight). Default 1.2.
    public var receiverHeight: Double
    /// The floor outline to keep the estimate inside, if any (see ``KalmanTracker`` and
    /// Docs/Reference/Tracking.md, "Map constraint"). Default nil.
    public var outline: Polygon?
    /// How far inside the outline a projected estimate is placed, metres. Default 0.05.
    public var outlineMargin: Double
    /// The floor's walls, which a step of the estimate does not cross: a step that would is
    /// stopped ``outlineMargin`` short of the wall and slides along it (a gap between walls, a
    /// door, lets it through). Default nil (none).
    public var walls: FloorWalls?
    /// Whether the tracker records every step for the ``RTSSmoother``. Default false (no memory
    /// grows); enable it for offline batches.
    public var recordsHistory: Bool
    /// Largest factor by which the tracker may scale every RSSI sample's variance σ² when its
    /// innovations show more scatter than the path-loss model's σ says (1 disables the
    /// adaptation). The scale λ is learned from the accepted samples as an exponentially
    /// weighted mean of (ν² − H P Hᵀ)/σ² over about 256 samples and kept in [1, this]. Default 4
    /// (σ may grow to 2×): calibrations from long static averages understate the scatter of a
    /// walking phone's single readings; on data that follows the model λ stays near 1.
    public var maximumNoiseScale: Double
    /// The motion modes (standing, strolling, walking) mixed in every prediction, with walking
    /// the model of ``accelerationDensity`` and ``velocityCorrelationTime``; nil for that single
    /// model alone. Default nil: the modes make the drawn track two to three times steadier
    /// but, on simulated and real data, the reported covariance less honest and some tracks
    /// less accurate (Docs/Reference/Tracking.md, "Motion modes"), so they are a choice for display.
    /// `MotionModes()` holds the documented mode settings.
    public var motionModes: MotionModes?

    /// A configuration; every argument has the documented default for a walking person.
    public init(
        accelerationDensity: Double = 0.8,
        velocityCorrelationTime: Double? = 2,
        gateProbability: Double = 0.999,
        fixRejectionsBeforeReset: Int = 3,
        rssiRejectionsBeforeReset: Int = 12,
        lostInnovationLevel: Double = 2,
        maximumSpeed: Double = 2.5,
        rssiIterations: Int = 1,
        resetPositionVariance: Double = 9,
        initialVelocitySigma: Double = 0.8,
        maximumPositionVariance: Double = 100,
        receiverHeight: Double = 1.2,
        outline: Polygon? = nil,
        outlineMargin: Double = 0.05,
        walls: FloorWalls? = nil,
        recordsHistory: Bool = false,
        maximumNoiseScale: Double = 4,
        motionModes: MotionModes? = nil
    ) {
        self.accelerationDensity = accelerationDensity
        self.velocityCorrelationTime = velocityCorrelationTime
        self.gateProbability = gateProbability
        self.fixRejectionsBeforeReset = fixRejectionsBeforeReset
        self.rssiRejectionsBeforeReset = rssiRejectionsBeforeReset
        self.lostInnovationLevel = lostInnovationLevel
        self.maximumSpeed = maximumSpeed
        self.rssiIterations = rssiIterations
        self.resetPositionVariance = resetPositionVariance
        self.initialVelocitySigma = initialVelocitySigma
        self.maximumPositionVariance = maximumPositionVariance
        self.receiverHeight = receiverHeight
        self.outline = outline
        self.outlineMargin = outlineMargin
        self.walls = walls
        self.recordsHistory = recordsHistory
        self.maximumNoiseScale = maximumNoiseScale
        self.motionModes = motionModes
    }

    /// Throws `invalidConfiguration` naming the first value out of range.
    public func validate() throws(TrackingError) {
        func check(_ ok: Bool, _ field: String, _ value: Double) throws(TrackingError) {
            if !ok { throw .invalidConfiguration(field: field, value: value) }
        }
        // 10⁻⁶ m²/s³ is a receiver that drifts a millimetre a minute; 10³ a vehicle braking hard.
        try check(
            accelerationDensity.isFinite && accelerationDensity >= 1e-6 && accelerationDensity <= 1e3,
            "accelerationDensity", accelerationDensity)
        if let tau = velocityCorrelationTime {
            try check(tau.isFinite && tau >= 0.01 && tau <= 3600, "velocityCorrelationTime", tau)
        }
        try check(gateProbability > 0 && gateProbability < 1, "gateProbability", gateProbability)
        try check(fixRejectionsBeforeReset >= 1, "fixRejectionsBeforeReset", Double(fixRejectionsBeforeReset))
        try check(rssiRejectionsBeforeReset >= 1, "rssiRejectionsBeforeReset", Double(rssiRejectionsBeforeReset))
        try check(lostInnovationLevel.isFinite && lostInnovationLevel > 1, "lostInnovationLevel", lostInnovationLevel)
        try check(rssiIterations >= 1 && rssiIterations <= 20, "rssiIterations", Double(rssiIterations))
        try check(maximumSpeed.isFinite && maximumSpeed > 0 && maximumSpeed <= 1000, "maximumSpeed", maximumSpeed)
        try check(
            maximumNoiseScale.isFinite && maximumNoiseScale >= 1 && maximumNoiseScale <= 100,
            "maximumNoiseScale", maximumNoiseScale)
        try check(
            resetPositionVariance.isFinite && resetPositionVariance > 0, "resetPositionVariance", resetPositionVariance)
        try check(
            initialVelocitySigma.isFinite && initialVelocitySigma > 0, "initialVelocitySigma", initialVelocitySigma)
        try check(
            maximumPositionVariance.isFinite && maximumPositionVariance > 0, "maximumPositionVariance",
            maximumPositionVariance)
        try check(receiverHeight.isFinite, "receiverHeight", receiverHeight)
        try check(outlineMargin.isFinite && outlineMargin >= 0, "outlineMargin", outlineMargin)
        try motionModes?.validate()
        if let outline {
            try check(outline.vertices.count >= 3 && outline.area > 0, "outline.area", outline.area)
        }
    }

    /// The gate for a scalar (RSSI) innovation: the chi-square quantile with 1 degree of freedom.
    public var rssiGate: Double { ChiSquare.quantile1(gateProbability) }

    /// The gate for a 2-D (position) innovation: the chi-square quantile with 2 degrees of freedom.
    public var fixGate: Double { ChiSquare.quantile2(gateProbability) }
}
