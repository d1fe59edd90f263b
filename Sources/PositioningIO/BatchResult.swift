import IndoorPositioning

/// What a ``BatchLocator`` run read, skipped and produced.
public struct BatchResult: Sendable {
    /// The reader's counts: rows read, rows without a reading, malformed rows.
    public let counts: RSSISampleReader.Counts
    /// The engine's counts: samples used and skipped by reason, reports, track restarts.
    public let statistics: PositioningEngine.Statistics
    /// Whether the file was sorted in memory (a row was more than 0.95 s out of its device's order).
    public let sorted: Bool
    /// How often the file was positioned again after a row out of order (0 or 1).
    public let restarts: Int
    /// Beacons set apart at the end as inconsistent with the tracks.
    public let setApart: [BeaconIdentity]
    /// The models learned while locating (with online learning), per beacon in plan order.
    public let learnedModels: [LearnedPathLoss]?
    /// Whether the file's `activity` column turned on the tracker's motion modes, which the
    /// configuration had off (``BatchLocator/run(path:hasDevices:write:encoder:writeEncoded:restart:progress:)``).
    public var motionModesForActivity = false
    /// With `TrilaterationSolver.Fallback.detectionPosterior` and no detection model in the
    /// configuration: what the first pass over the file counted and the model fitted from it
    /// (or why none was, and the fallbacks stayed weighted centroids).
    public var detection: DetectionLearning?
    /// The detection curve the engine learned as the input went
    /// (`PositioningEngine.Configuration.learnsDetection`, without a first pass; nil otherwise).
    public var learnedDetection: LearnedDetection?

    /// The detection curve learned by a first pass (see ``BatchResult/detection``).
    public struct DetectionLearning: Sendable {
        /// What the determined fixes of the first pass heard and missed (a bounded sample).
        public var scans: DetectionScans
        /// The fitted model, or why there is none.
        public var model: Result<DetectionModel, DetectionScans.Shortfall>
        /// The a-posteriori variance factor χ²/dof of the first pass's determined fixes, at
        /// least 1 (1 when none had degrees of freedom): the fallbacks' readings are taken with
        /// σ² times this (`TrilaterationSolver.Configuration.fallbackVarianceFactor`).
        public var varianceFactor: Double

        /// The solver settings this learning gives: the model and the variance factor, when a
        /// model was fitted (otherwise `solver` unchanged: fallbacks stay weighted centroids).
        public func apply(to solver: inout TrilaterationSolver.Configuration) {
            guard case .success(let model) = model else { return }
            solver.detection = model
            solver.fallbackVarianceFactor = varianceFactor
        }

        /// One line for people: the curve at 1, 3 and 10 m, or why there is none.
        public var summary: String {
            switch model {
            case .success(let m):
                let sampled = min(scans.fixes, DetectionScans.capacity)
                return "detection curve from \(sampled) of \(scans.fixes) determined fixes: "
                    + BatchResult.describe(m, varianceFactor: varianceFactor)
            case .failure(let shortfall):
                return "no detection curve (\(shortfall)): fallbacks are weighted centroids"
            }
        }
    }

    /// One line for people on ``learnedDetection`` (`LearnedDetection.summary(statistics:)`).
    public var learnedDetectionSummary: String? { learnedDetection?.summary(statistics: statistics) }

    /// The curve `m` at 1, 3 and 10 m, its offset slope and spread, and the fallbacks' variance factor.
    static func describe(_ m: DetectionModel, varianceFactor: Double) -> String {
        let at = [1.0, 3, 10].map { String(format: "%.2f", m.probability(distance: $0)) }
        return String(
            format:
                "P(heard) %@, %@, %@ at 1, 3, 10 m for a typical scan; %+.3f per dB of offset and %.2f between scans (log-odds); the fallbacks' readings taken with %.1f× their variance",
            at[0], at[1], at[2], m.offsetSlope, m.scanSpread, varianceFactor)
    }

    /// Each kind of skipped row with its count, for example "3 of beacons not in the plan".
    public var skipped: [String] { Self.skipped(counts: counts, statistics: statistics) }

    /// Each kind of row skipped by a reader with `counts` and an engine with `statistics`, with
    /// its count: what `locate` (and `monitor`, `calibrate --from-traffic`) report.
    public static func skipped(counts: RSSISampleReader.Counts, statistics: PositioningEngine.Statistics) -> [String] {
        skipped(
            counts: counts, invalidRSSI: statistics.invalidRSSI, unknownBeacon: statistics.unknownBeacon,
            invalidTime: statistics.invalidTime, late: statistics.late)
    }

    /// As ``skipped(counts:statistics:)``, from the engine's counts one by one.
    public static func skipped(
        counts: RSSISampleReader.Counts, invalidRSSI: Int, unknownBeacon: Int, invalidTime: Int = 0, late: Int = 0
    ) -> [String] {
        var skipped: [String] = []
        if counts.noReading > 0 { skipped.append("\(counts.noReading) with no reading (rssi 0 or 127)") }
        if invalidRSSI > 0 { skipped.append("\(invalidRSSI) with an implausible rssi") }
        if unknownBeacon > 0 { skipped.append("\(unknownBeacon) of beacons not in the plan") }
        if invalidTime > 0 { skipped.append("\(invalidTime) with an unusable timestamp") }
        if late > 0 { skipped.append("\(late) too late for their epoch") }
        if counts.badRows > 0 {
            skipped.append(
                "\(counts.badRows) malformed row(s), the first: \(counts.firstBadRow.map(String.init(describing:)) ?? "")"
            )
        }
        return skipped
    }

    /// The epochs with samples that gave no position, with their reasons ("607 epochs gave no
    /// position: 600 without a fix, 7 refused by the tracker without a determined fix"); nil
    /// when every such epoch gave one.
    public var unreported: String? {
        guard statistics.epochsWithoutReport > 0 else { return nil }
        var reasons: [String] = []
        if statistics.epochsWithoutFix > 0 { reasons.append("\(statistics.epochsWithoutFix) without a fix") }
        if statistics.epochsRefused > 0 {
            reasons.append("\(statistics.epochsRefused) refused by the tracker without a determined fix")
        }
        return "\(statistics.epochsWithoutReport) epochs gave no position: " + reasons.joined(separator: ", ")
    }

    /// What the phone's activity hints did, or nil when no sample carried one.
    public var activityNote: String? {
        guard statistics.activityHints > 0 else { return nil }
        let hints = "\(statistics.activityHints) samples carried the phone's activity"
        if motionModesForActivity {
            return hints + "; the activity column turned on the tracker's motion modes, which the hints weigh"
        }
        return hints + "; the hints weigh the tracker's motion modes (ignored without a tracker)"
    }

    /// What was read and skipped, in one phrase ("120 samples read; skipped 3 of beacons not in
    /// the plan").
    public var readAndSkipped: String {
        let read = "\(counts.read) samples read"
        return skipped.isEmpty ? read + ", none skipped" : read + "; skipped " + skipped.joined(separator: ", ")
    }
}

extension LearnedDetection {
    /// One line for people on the curve an engine with these `statistics` learned as its input
    /// went: at 1, 3 and 10 m, with the fits it took, or why there is none; nil when there is
    /// none and no fallback was reported (no report needed one).
    public func summary(statistics: PositioningEngine.Statistics) -> String? {
        guard let m = model else {
            guard statistics.fallbackReports > 0 || fits > 0 else { return nil }
            let first = PositioningEngine.Configuration.detectionFitSchedule.first
            let why =
                shortfall.map(String.init(describing:))
                ?? "\(statistics.detections.fixes) determined fix(es), at least \(first) are needed"
            return "no detection curve (\(why)): fallbacks are weighted centroids"
        }
        let sampled = min(fixes, DetectionScans.capacity)
        return "detection curve learned as the input went (\(fits) fit(s), the last from \(sampled) of "
            + "\(fixes) determined fixes): " + BatchResult.describe(m, varianceFactor: varianceFactor)
    }
}
