/// The tracker's motion modes: one motion model per ``MotionMode`` and the mean dwell time in
/// each, from which the modes' Markov transition matrix follows (``ModeProbabilities``).
///
/// Walking uses the configuration's own model (``TrackerConfiguration/accelerationDensity``
/// and ``TrackerConfiguration/velocityCorrelationTime``); standing and strolling are set here.
/// Every mode is an integrated Ornstein–Uhlenbeck velocity (``MotionModel``) with spectral
/// density q and correlation time τ: the velocity's steady-state spread is √(qτ/2) per axis
/// and, for τ much shorter than the epoch, the position is a random walk of density ≈ qτ²
/// (m²/s). Defaults and where they come from: Docs/Reference/Tracking.md, "Motion modes".
public struct MotionModes: Sendable, Hashable {
    /// Standing: q, m²/s³. Default 0.06: with τ = 0.2 s the position diffuses by
    /// √(qτ²) ≈ 5 cm/√s and the velocity spread is √(qτ/2) ≈ 0.08 m/s per axis.
    public var standingDensity: Double
    /// Standing: velocity correlation time τ, seconds. Default 0.2 (the velocity is pulled to
    /// zero within the epoch).
    public var standingCorrelationTime: Double
    /// Strolling: q, m²/s³. Default 0.1: with τ = 2 s a velocity spread of √(qτ/2) ≈ 0.3 m/s
    /// per axis, a browsing person's few decimetres per second.
    public var strollingDensity: Double
    /// Strolling: velocity correlation time τ, seconds. Default 2.
    public var strollingCorrelationTime: Double
    /// Mean dwell times (standing, strolling, walking), seconds. Defaults 30, 15 and 20 (shop
    /// and office dwell times, see Docs/Reference/Tracking.md).
    public var dwellTimes: (standing: Double, strolling: Double, walking: Double)
    /// The mode probabilities a track starts with. Default 1/3 each.
    public var initial: ModeProbabilities

    /// Modes with the documented defaults.
    public init(
        standingDensity: Double = 0.06, standingCorrelationTime: Double = 0.2,
        strollingDensity: Double = 0.1, strollingCorrelationTime: Double = 2,
        dwellTimes: (standing: Double, strolling: Double, walking: Double) = (30, 15, 20),
        initial: ModeProbabilities = ModeProbabilities(standing: 1, strolling: 1, walking: 1)
    ) {
        self.standingDensity = standingDensity
        self.standingCorrelationTime = standingCorrelationTime
        self.strollingDensity = strollingDensity
        self.strollingCorrelationTime = strollingCorrelationTime
        self.dwellTimes = dwellTimes
        self.initial = initial
    }

    /// Throws `invalidConfiguration` naming the first value out of range (every density and
    /// time must be positive and finite).
    public func validate() throws(TrackingError) {
        func check(_ value: Double, _ field: String) throws(TrackingError) {
            if !(value.isFinite && value > 0) { throw .invalidConfiguration(field: field, value: value) }
        }
        try check(standingDensity, "motionModes.standingDensity")
        try check(standingCorrelationTime, "motionModes.standingCorrelationTime")
        try check(strollingDensity, "motionModes.strollingDensity")
        try check(strollingCorrelationTime, "motionModes.strollingCorrelationTime")
        try check(dwellTimes.standing, "motionModes.dwellTimes.standing")
        try check(dwellTimes.strolling, "motionModes.dwellTimes.strolling")
        try check(dwellTimes.walking, "motionModes.dwellTimes.walking")
    }

    /// The three models (standing, strolling, walking) with `walking` as the walking model.
    func models(walking: MotionModel) -> (MotionModel, MotionModel, MotionModel) {
        (
            MotionModel(density: standingDensity, correlationTime: standingCorrelationTime),
            MotionModel(density: strollingDensity, correlationTime: strollingCorrelationTime),
            walking
        )
    }

    public static func == (a: MotionModes, b: MotionModes) -> Bool {
        a.standingDensity == b.standingDensity && a.standingCorrelationTime == b.standingCorrelationTime
            && a.strollingDensity == b.strollingDensity && a.strollingCorrelationTime == b.strollingCorrelationTime
            && a.dwellTimes == b.dwellTimes && a.initial == b.initial
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(standingDensity)
        hasher.combine(standingCorrelationTime)
        hasher.combine(strollingDensity)
        hasher.combine(strollingCorrelationTime)
        hasher.combine(dwellTimes.standing)
        hasher.combine(dwellTimes.strolling)
        hasher.combine(dwellTimes.walking)
        hasher.combine(initial)
    }
}

extension MotionModes: Codable {
    private enum Keys: String, CodingKey {
        case standingDensity, standingCorrelationTime, strollingDensity, strollingCorrelationTime
        case dwellStanding, dwellStrolling, dwellWalking, initial
    }

    /// Decodes the densities (m²/s³), correlation and dwell times (s) and the initial probabilities.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        self.init(
            standingDensity: try c.decode(Double.self, forKey: .standingDensity),
            standingCorrelationTime: try c.decode(Double.self, forKey: .standingCorrelationTime),
            strollingDensity: try c.decode(Double.self, forKey: .strollingDensity),
            strollingCorrelationTime: try c.decode(Double.self, forKey: .strollingCorrelationTime),
            dwellTimes: (
                try c.decode(Double.self, forKey: .dwellStanding),
                try c.decode(Double.self, forKey: .dwellStrolling),
                try c.decode(Double.self, forKey: .dwellWalking)
            ),
            initial: try c.decode(ModeProbabilities.self, forKey: .initial))
    }

    /// Encodes every setting; the dwell times as `dwellStanding`, `dwellStrolling`, `dwellWalking`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(standingDensity, forKey: .standingDensity)
        try c.encode(standingCorrelationTime, forKey: .standingCorrelationTime)
        try c.encode(strollingDensity, forKey: .strollingDensity)
        try c.encode(strollingCorrelationTime, forKey: .strollingCorrelationTime)
        try c.encode(dwellTimes.standing, forKey: .dwellStanding)
        try c.encode(dwellTimes.strolling, forKey: .dwellStrolling)
        try c.encode(dwellTimes.walking, forKey: .dwellWalking)
        try c.encode(initial, forKey: .initial)
    }
}
