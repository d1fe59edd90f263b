/// How well one zone rule (the library's `zone` column, point-in-polygon, or its debounce) says
/// which zone each device is in, by the definitions of `Scripts/reference/zones.py` `figures`.
///
/// A share is nil where it is undefined (no rows, no true entry, no caught entry), except
/// ``falseEntries``, which is 0 when nothing was reported (as zones.py has it).
public struct ZoneFigures: Sendable, Hashable {
    /// How far apart, seconds, a reported entry and a true entry into the same zone may be and
    /// still match (either side).
    public static let window = 10.0

    /// Fixes scored (each with a true zone).
    public var rows: Int
    /// Of those, fixes whose reported zone (none included) is the true zone.
    public var heldRows: Int
    /// True entries into a zone (``ZoneEntry/entries(of:)`` of each device's true zones).
    public var trueEntries: Int
    /// True entries matched by a reported entry into the same zone within ±``window`` seconds.
    public var caughtEntries: Int
    /// Per caught entry, the reported entry nearest in time (the earlier on a tie) minus the true
    /// entry's time, seconds: positive is late.
    public var latencies: [Double]
    /// Entries the rule reported.
    public var reportedEntries: Int
    /// Reported entries with no true entry into the same zone within ±``window`` seconds.
    public var falseEntryCount: Int
    /// Zone changes the rule reported (consecutive fixes of a device with different zones).
    public var changes: Int
    /// Zone changes of the truth over the same fixes.
    public var trueChanges: Int
    /// The longest time, seconds, two zone regions were satisfied at once for one device in the
    /// monitor's events (``ZoneOverlap``); nil when no events were given. Only the library rule
    /// has it.
    public var twoAtOnce: Double?

    /// Share (0…1) of fixes whose reported zone is the true zone; nil without rows.
    public var held: Double? { rows > 0 ? Double(heldRows) / Double(rows) : nil }
    /// Share (0…1) of true entries caught; nil without true entries.
    public var caught: Double? { trueEntries > 0 ? Double(caughtEntries) / Double(trueEntries) : nil }
    /// Median of ``latencies`` (the mean of the middle two for an even count), seconds; nil
    /// when no entry was caught.
    public var medianLatency: Double? {
        guard !latencies.isEmpty else { return nil }
        let sorted = latencies.sorted(), n = sorted.count
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
    }
    /// Share (0…1) of reported entries that are false; 0 when none was reported.
    public var falseEntries: Double {
        reportedEntries > 0 ? Double(falseEntryCount) / Double(reportedEntries) : 0
    }

    /// The figures of `series`: per device, its scored fixes in time order.
    public init(series: [String: [ZoneStep]]) {
        rows = 0
        heldRows = 0
        trueEntries = 0
        caughtEntries = 0
        latencies = []
        reportedEntries = 0
        falseEntryCount = 0
        changes = 0
        trueChanges = 0
        for steps in series.values {
            rows += steps.count
            heldRows += steps.lazy.filter { $0.reported == $0.truth }.count
            let truthIn = ZoneEntry.entries(of: steps.map { ($0.time, $0.truth) })
            let reported = ZoneEntry.entries(of: steps.map { ($0.time, $0.reported) })
            trueEntries += truthIn.count
            reportedEntries += reported.count
            for entry in truthIn {
                var nearest: Double?
                for other in reported
                where other.zone == entry.zone && abs(other.time - entry.time) <= Self.window {
                    if nearest.map({ abs(other.time - entry.time) < abs($0 - entry.time) }) ?? true {
                        nearest = other.time
                    }
                }
                if let nearest {
                    caughtEntries += 1
                    latencies.append(nearest - entry.time)
                }
            }
            for entry in reported
            where !truthIn.contains(where: { $0.zone == entry.zone && abs($0.time - entry.time) <= Self.window }) {
                falseEntryCount += 1
            }
            for (a, b) in zip(steps, steps.dropFirst()) {
                if a.reported != b.reported { changes += 1 }
                if a.truth != b.truth { trueChanges += 1 }
            }
        }
    }
}
