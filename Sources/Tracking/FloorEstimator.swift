/// Chooses the floor level from per-epoch evidence with hysteresis, so that a walker on the
/// stairs, heard by beacons of two floors, does not make the floor flap.
///
/// Evidence is a score per level, higher meaning more likely (for example
/// ``FloorEstimator/score(rssi:)``: the mean of the strongest three RSSI values in dBm heard from
/// that level's beacons in the epoch). The rule:
///
/// 1. The first epoch with evidence picks the level with the highest score.
/// 2. Afterwards a challenger level replaces the current one only when its score exceeds the
///    current level's by at least ``Configuration/margin`` in every epoch for at least
///    ``Configuration/dwellTime`` seconds (measured between the first and the latest winning
///    epoch). A current level absent from an epoch's evidence scores −∞ there.
/// 3. An epoch in which the challenger does not win clearly (or another level leads) restarts the
///    count; an epoch with no evidence at all changes nothing.
///
/// A walker who really changes floors is confirmed after the dwell time; alternating noisy
/// evidence never holds a clear lead for that long and so never switches.
public struct FloorEstimator: Sendable, Hashable {
    /// The hysteresis rule's parameters.
    public struct Configuration: Sendable, Hashable, Codable {
        /// How much a challenger's score must exceed the current level's, in score units (dB
        /// with ``FloorEstimator/score(rssi:)``). Default 5 dB, above the ≈ 2.3 dB standard
        /// deviation of a mean of three samples at σ = 4 dB.
        public var margin: Double
        /// How long the challenger must keep winning, seconds. Default 2.5 (three epochs of 1 s).
        public var dwellTime: Double

        /// A rule with the given margin (score units) and dwell time (seconds).
        public init(margin: Double = 5, dwellTime: Double = 2.5) {
            self.margin = margin
            self.dwellTime = dwellTime
        }
    }

    /// What an epoch's evidence decided.
    public struct Decision: Sendable, Hashable {
        /// The level in force after this epoch (nil until evidence arrives).
        public var level: Int?
        /// Whether the level changed at this epoch (including the first choice).
        public var changed: Bool
    }

    /// The rule in force.
    public let configuration: Configuration
    /// The current level, nil before the first evidence.
    public private(set) var level: Int?
    /// The time of the latest epoch, seconds.
    public private(set) var time: Double?
    private var challenger: Int?
    private var challengerSince: Double = 0

    /// An estimator with no level yet.
    /// - Throws: `invalidConfiguration` for a negative or non-finite margin or dwell time.
    public init(configuration: Configuration = Configuration()) throws(TrackingError) {
        guard configuration.margin.isFinite, configuration.margin >= 0 else {
            throw .invalidConfiguration(field: "FloorEstimator.margin", value: configuration.margin)
        }
        guard configuration.dwellTime.isFinite, configuration.dwellTime >= 0 else {
            throw .invalidConfiguration(field: "FloorEstimator.dwellTime", value: configuration.dwellTime)
        }
        self.configuration = configuration
    }

    /// Feeds one epoch's evidence, a score per level, at `time` seconds.
    ///
    /// - Throws: `nonFiniteInput` for a NaN time or score (−∞ scores are allowed: "not heard"),
    ///   `timestampBeforeState` for a time before the previous epoch. The state is unchanged then.
    @discardableResult
    public mutating func update(time: Double, evidence: [Int: Double]) throws(TrackingError) -> Decision {
        guard time.isFinite else { throw .nonFiniteInput(field: "FloorEstimator.time") }
        if let last = self.time, time < last { throw .timestampBeforeState(time: time, stateTime: last) }
        for score in evidence.values where score.isNaN || score == .infinity {
            throw .nonFiniteInput(field: "FloorEstimator.evidence")
        }
        self.time = time
        // The best level this epoch (ties broken by the lower level, deterministically).
        var best: (level: Int, score: Double)?
        for (l, s) in evidence where s > -.infinity {
            if let b = best, s < b.score || (s == b.score && l > b.level) { continue }
            best = (l, s)
        }
        guard let best else { return Decision(level: level, changed: false) }
        guard let current = level else {
            level = best.level
            challenger = nil
            return Decision(level: level, changed: true)
        }
        let currentScore = evidence[current] ?? -.infinity
        guard best.level != current, best.score - currentScore >= configuration.margin else {
            challenger = nil
            return Decision(level: level, changed: false)
        }
        if challenger != best.level {
            challenger = best.level
            challengerSince = time
        }
        guard time - challengerSince >= configuration.dwellTime else {
            return Decision(level: level, changed: false)
        }
        level = best.level
        challenger = nil
        return Decision(level: level, changed: true)
    }

    /// A level's evidence from the RSSI values (dBm) heard from its beacons in one epoch: the
    /// mean of the strongest three (or of all, if fewer), −∞ when none. Non-finite values are
    /// skipped.
    public static func score(rssi values: [Double]) -> Double {
        var first = -Double.infinity, second = -Double.infinity, third = -Double.infinity
        var count = 0
        for v in values where v.isFinite {
            count += 1
            if v > first {
                (first, second, third) = (v, first, second)
            } else if v > second {
                (second, third) = (v, second)
            } else if v > third {
                third = v
            }
        }
        switch count {
        case 0: return -.infinity
        case 1: return first
        case 2: return (first + second) / 2
        default: return (first + second + third) / 3
        }
    }
}
