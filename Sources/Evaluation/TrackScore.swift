/// Fixes scored against ground truth, per device and overall, by the rules of
/// `Scripts/reference/evaluate.py` (see ``TruthTrack`` for interpolation and coverage).
///
/// A truth without a `device` column applies to every device; otherwise a device's fixes are
/// scored against the truth of the same name, and fixes of a device the truth lacks are skipped.
/// Honesty is reported when the fixes have `accuracy`; the floor hit rate when both files have
/// `floor`.
public struct TrackScore: Sendable, Hashable {
    /// One device's scores.
    public struct Device: Sendable, Hashable {
        /// The device name ("" when the fixes name no devices).
        public var name: String
        /// Its scores.
        public var metrics: EvaluationMetrics
        /// How steady its track is (``Steadiness``).
        public var steadiness = Steadiness([])
    }

    /// Per device, in the order of ``TrackTable/devices``.
    public var devices: [Device]
    /// All scored fixes pooled.
    public var overall: EvaluationMetrics
    /// The steps of every device pooled (``Steadiness``).
    public var steadiness: Steadiness
    /// Fixes inside their truth's time span but skipped because they fall in a gap longer than
    /// the `maxGap` given (part of ``EvaluationMetrics/skipped``).
    public var skippedInGaps = 0

    /// The default longest truth gap, seconds, inside which fixes are still scored.
    public static let defaultMaxGap = 5.0

    /// Scores `fixes` against `truth`; fixes inside a truth gap longer than `maxGap` seconds
    /// (positive) are skipped.
    public init(fixes: TrackTable, truth: TrackTable, maxGap: Double = TrackScore.defaultMaxGap) {
        let hasFloor = fixes.hasFloor && truth.hasFloor
        var devices: [Device] = []
        var pooledErrors: [Double] = [], pooledHonest: [Bool] = [], pooledFloor: [Bool] = []
        var pooledSteps: [Steadiness.Step] = []
        var skippedTotal = 0
        let shared = truth.hasDevices ? nil : truth.tracks.values.first.map(TruthTrack.init(points:))
        for name in fixes.devices {
            let fixPoints = fixes.tracks[name] ?? []
            guard let reference = shared ?? truth.tracks[name].map(TruthTrack.init(points:)) else {
                skippedTotal += fixPoints.count
                devices.append(
                    Device(
                        name: name,
                        metrics: EvaluationMetrics(
                            errors: [], honest: nil, floorHits: nil, skipped: fixPoints.count)))
                continue
            }
            var errors: [Double] = [], honest: [Bool] = [], floorHits: [Bool] = []
            var steps: [Steadiness.Step] = []
            var previous: (fix: TrackPoint, truth: (x: Double, y: Double))?
            var skipped = 0
            for fix in fixPoints {
                guard reference.covers(fix.timestamp, maxGap: maxGap) else {
                    skipped += 1
                    if reference.covers(fix.timestamp, maxGap: .infinity) { skippedInGaps += 1 }
                    previous = nil
                    continue
                }
                let at = reference.position(at: fix.timestamp)
                if let (before, truth) = previous, fix.timestamp > before.timestamp,
                    fix.timestamp - before.timestamp <= Steadiness.maximumStepGap
                {
                    steps.append(
                        Steadiness.Step(
                            fix: Self.distance(fix.x - before.x, fix.y - before.y),
                            truth: Self.distance(at.x - truth.x, at.y - truth.y),
                            interval: fix.timestamp - before.timestamp))
                }
                previous = (fix, (at.x, at.y))
                let error = ((fix.x - at.x) * (fix.x - at.x) + (fix.y - at.y) * (fix.y - at.y)).squareRoot()
                errors.append(error)
                if let accuracy = fix.accuracy { honest.append(error <= accuracy) }
                if hasFloor { floorHits.append(fix.floor == at.floor) }
            }
            skippedTotal += skipped
            devices.append(
                Device(
                    name: name,
                    metrics: EvaluationMetrics(
                        errors: errors, honest: fixes.hasAccuracy ? honest : nil,
                        floorHits: hasFloor ? floorHits : nil, skipped: skipped),
                    steadiness: Steadiness(steps)))
            pooledSteps += steps
            pooledErrors += errors
            pooledHonest += honest
            pooledFloor += floorHits
        }
        self.devices = devices
        overall = EvaluationMetrics(
            errors: pooledErrors, honest: fixes.hasAccuracy ? pooledHonest : nil,
            floorHits: hasFloor ? pooledFloor : nil, skipped: skippedTotal)
        steadiness = Steadiness(pooledSteps)
    }

    private static func distance(_ dx: Double, _ dy: Double) -> Double { (dx * dx + dy * dy).squareRoot() }
}
