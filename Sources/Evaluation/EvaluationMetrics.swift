/// The scores of one group of fixes (a device, or all of them) against the truth.
///
/// Errors are horizontal distances between a fix and the truth interpolated at its time,
/// metres. A metric is nil when it has no data: every metric when no fix was scored,
/// `honesty` without an `accuracy` column, `floorHitRate` unless both files have `floor`.
public struct EvaluationMetrics: Sendable, Hashable {
    /// Fixes scored.
    public var count: Int
    /// Fixes skipped: outside the truth's span, inside a gap, or of a device without truth.
    public var skipped: Int
    /// The scored fixes' errors, metres, ascending.
    public var errors: [Double]
    /// Root mean square error, metres.
    public var rmse: Double?
    /// Median error, metres.
    public var median: Double?
    /// 90th percentile of the error, metres.
    public var p90: Double?
    /// 95th percentile of the error, metres.
    public var p95: Double?
    /// Share (0…1) of fixes whose error is at most their `accuracy`; about 0.63 is right for a
    /// 1-σ radius of a circular Gaussian error (1 − e⁻¹), far below is over-confident.
    public var honesty: Double?
    /// Share (0…1) of fixes on the true floor.
    public var floorHitRate: Double?

    /// The metrics of `errors` (metres, any order); `honest` and `floorHits` are per-fix flags
    /// (nil when unknown), `skipped` the count of fixes left out.
    public init(errors: [Double], honest: [Bool]?, floorHits: [Bool]?, skipped: Int) {
        let sorted = errors.sorted()
        self.count = sorted.count
        self.skipped = skipped
        self.errors = sorted
        guard !sorted.isEmpty else { return }
        rmse = SampleStatistics.rootMeanSquare(sorted)
        median = SampleStatistics.quantile(sorted: sorted, 0.5)
        p90 = SampleStatistics.quantile(sorted: sorted, 0.9)
        p95 = SampleStatistics.quantile(sorted: sorted, 0.95)
        honesty = honest.map { Self.share($0) }
        floorHitRate = floorHits.map { Self.share($0) }
    }

    private static func share(_ flags: [Bool]) -> Double {
        Double(flags.lazy.filter { $0 }.count) / Double(flags.count)
    }
}
