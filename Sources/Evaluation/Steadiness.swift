/// How steady a drawn track is against the truth: the dot's fix-to-fix steps beside the true
/// steps over the same intervals.
///
/// A step joins two consecutive fixes of one device that are at most ``maximumStepGap`` apart
/// and both scored (inside the truth's coverage, as for the errors). Its length is the distance
/// between the two fixes; the true step is the distance between the truth at the same two
/// times. A track that follows the truth has a path ratio near 1; a jittery dot draws a path
/// several times the true one. `Scripts/Research/steadiness.py` computes the same figures.
public struct Steadiness: Sendable, Hashable {
    /// The steps counted.
    public var steps: Int
    /// Σ fix steps ÷ Σ true steps (the drawn path's length over the true one's); nil without
    /// steps or when the truth did not move.
    public var pathRatio: Double?
    /// Median fix-to-fix step, metres.
    public var medianStep: Double?
    /// Median true step over the same intervals, metres.
    public var medianTrueStep: Double?
    /// The dot's mean speed over the steps in which the truth stood still (moved slower than
    /// ``stillSpeedLimit``), m/s; nil when the truth never stood still.
    public var stillSpeed: Double?
    /// Steps in which the truth stood still.
    public var stillSteps: Int

    /// The longest time between two fixes that still makes a step, seconds (as
    /// `steadiness.py --max-step-gap`).
    public static let maximumStepGap = 5.0
    /// Below this true speed the truth counts as standing still, m/s.
    public static let stillSpeedLimit = 0.05

    /// One step: the fix step and the true step, metres, over `interval` seconds.
    public struct Step: Sendable, Hashable {
        /// Distance between the two fixes, metres.
        public var fix: Double
        /// Distance between the truth at the two fixes' times, metres.
        public var truth: Double
        /// Time between the two fixes, seconds (> 0).
        public var interval: Double

        /// A step from its parts.
        public init(fix: Double, truth: Double, interval: Double) {
            self.fix = fix
            self.truth = truth
            self.interval = interval
        }
    }

    /// The figures of `steps` (any order).
    public init(_ steps: [Step]) {
        self.steps = steps.count
        let still = steps.filter { $0.truth < Self.stillSpeedLimit * $0.interval }
        stillSteps = still.count
        guard !steps.isEmpty else { return }
        let drawn = steps.reduce(0) { $0 + $1.fix }, travelled = steps.reduce(0) { $0 + $1.truth }
        pathRatio = travelled > 0 ? drawn / travelled : nil
        medianStep = SampleStatistics.quantile(sorted: steps.map(\.fix).sorted(), 0.5)
        medianTrueStep = SampleStatistics.quantile(sorted: steps.map(\.truth).sorted(), 0.5)
        if !still.isEmpty {
            stillSpeed = still.reduce(0) { $0 + $1.fix / $1.interval } / Double(still.count)
        }
    }
}
