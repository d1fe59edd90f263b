/// One scored fix of a zone rule: when, the zone the rule gave and the true zone ("" for none).
public struct ZoneStep: Sendable, Hashable {
    /// The fix's time, seconds.
    public var time: Double
    /// The zone the rule reported, "" for none.
    public var reported: String
    /// The zone of the truth at that time, "" for none.
    public var truth: String

    /// A step: `time` in seconds, zone ids ("" for none).
    public init(time: Double, reported: String, truth: String) {
        self.time = time
        self.reported = reported
        self.truth = truth
    }

    /// The order zones.py sorts its tuples in: by time, then reported zone, then true zone
    /// (strings by Unicode scalars, as Python compares them).
    static func precedes(_ a: ZoneStep, _ b: ZoneStep) -> Bool {
        if a.time != b.time { return a.time < b.time }
        if a.reported != b.reported {
            return a.reported.unicodeScalars.lexicographicallyPrecedes(b.reported.unicodeScalars)
        }
        return a.truth.unicodeScalars.lexicographicallyPrecedes(b.truth.unicodeScalars)
    }
}
