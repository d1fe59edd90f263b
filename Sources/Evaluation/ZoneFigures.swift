import LinearAlgebra

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
    public var medianLatency: Double? { latencies.isEmpty ? nil : Median.of(latencies) }
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
            // Entries are in time order; matching looks up the nearest entry of the same zone by
            // bisection, so a long series costs O(n log n), not zones.py's O(n²).
            let reportedTimes = Self.timesByZone(reported), trueTimes = Self.timesByZone(truthIn)
            for entry in truthIn {
                if let nearest = Self.nearest(in: reportedTimes[entry.zone] ?? [], to: entry.time),
                    abs(nearest - entry.time) <= Self.window
                {
                    caughtEntries += 1
                    latencies.append(nearest - entry.time)
                }
            }
            for entry in reported {
                let nearest = Self.nearest(in: trueTimes[entry.zone] ?? [], to: entry.time)
                if !(nearest.map { abs($0 - entry.time) <= Self.window } ?? false) { falseEntryCount += 1 }
            }
            for (a, b) in zip(steps, steps.dropFirst()) {
                if a.reported != b.reported { changes += 1 }
                if a.truth != b.truth { trueChanges += 1 }
            }
        }
    }

    /// The entries' times per zone, in the entries' (time) order.
    static func timesByZone(_ entries: [ZoneEntry]) -> [String: [Double]] {
        var times: [String: [Double]] = [:]
        for entry in entries { times[entry.zone, default: []].append(entry.time) }
        return times
    }

    /// The time of `times` (ascending) nearest to `time`, the earlier of two equally near (as
    /// zones.py's `min` over the entries in time order); nil when `times` is empty.
    static func nearest(in times: [Double], to time: Double) -> Double? {
        let low = times.lowerBound(of: time) { $0 }
        let before = low > 0 ? times[low - 1] : nil, after = low < times.count ? times[low] : nil
        guard let before else { return after }
        guard let after else { return before }
        return abs(before - time) <= abs(after - time) ? before : after
    }
}
