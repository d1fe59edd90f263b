/// Zone figures of one fixes file against the truth, by the rules of
/// `Scripts/reference/zones.py` (the same definitions, so the two give the same numbers):
///
/// - The **true zone** of a fix is the plan zone (``PlanZones``) containing the truth of the
///   same device (the truth's `device` column, "" without one: a truth without devices scores
///   only fixes without devices) interpolated linearly to the fix's time, on the floor of the
///   truth row before it (0 without a `floor` column). The truth rows are ordered by time, then
///   x, y and floor; the time t falls between the first row at or after t and the row before
///   (the first two rows before the first row, the last two after the last), with the weight
///   clamped to 0…1. A fix more than 1 s before the truth's first row or after its last, or of a
///   device the truth lacks, is skipped (``skipped``).
/// - **library** scores the fixes' `zone` column ("" for none); **point-in-polygon** the plan
///   zone containing each fix's x, y on its floor (0 without a `floor` column); **debounced**
///   that zone after ``ZoneDebounce`` (3 fixes in a row).
/// - Each device's scored fixes are ordered by time (then reported zone, then true zone) and
///   scored by ``ZoneFigures``.
public struct ZoneScore: Sendable, Hashable {
    /// The library's zone decision (the `zone` column); nil when the fixes file has none.
    /// Carries ``ZoneFigures/twoAtOnce`` when events were given.
    public var library: ZoneFigures?
    /// The plain point-in-polygon rule on the fixes' x, y.
    public var pointInPolygon: ZoneFigures
    /// The point-in-polygon rule with a 3-fix debounce.
    public var debounced: ZoneFigures
    /// Fixes left out: more than 1 s outside their device's truth time span, or of a device the
    /// truth lacks.
    public var skipped: Int

    /// How far beyond the truth's first and last rows, seconds, a fix is still scored.
    public static let spanMargin = 1.0

    /// Scores `fixes` against `truth` on the zones `zones`; `events` (monitor events over the
    /// zones, any order) add the library's ``ZoneFigures/twoAtOnce``.
    public init(zones: PlanZones, fixes: TrackTable, truth: TrackTable, events: [RegionEvent]? = nil) {
        var library: [String: [ZoneStep]] = [:], plain: [String: [ZoneStep]] = [:]
        var skipped = 0
        for (device, points) in fixes.tracks {
            guard let track = truth.tracks[device].map(Self.ordered), !track.isEmpty else {
                skipped += points.count
                continue
            }
            for fix in points {
                guard let truthZone = Self.trueZone(zones: zones, track: track, at: fix.timestamp) else {
                    skipped += 1
                    continue
                }
                library[device, default: []].append(
                    ZoneStep(time: fix.timestamp, reported: fix.zone ?? "", truth: truthZone))
                plain[device, default: []].append(
                    ZoneStep(
                        time: fix.timestamp, reported: zones.zone(atX: fix.x, y: fix.y, level: fix.floor ?? 0),
                        truth: truthZone))
            }
        }
        plain = plain.mapValues { $0.sorted(by: ZoneStep.precedes) }
        let bounced = plain.mapValues { steps in
            zip(steps, ZoneDebounce.debounced(steps.map(\.reported))).map {
                ZoneStep(time: $0.time, reported: $1, truth: $0.truth)
            }
        }
        if fixes.hasZone {
            var figures = ZoneFigures(series: library.mapValues { $0.sorted(by: ZoneStep.precedes) })
            if let events { figures.twoAtOnce = ZoneOverlap.longest(in: events, zones: zones.ids) }
            self.library = figures
        }
        pointInPolygon = ZoneFigures(series: plain)
        debounced = ZoneFigures(series: bounced)
        self.skipped = skipped
    }

    /// A truth track in zones.py's order: by time, then x, y and floor (0 when none).
    static func ordered(_ points: [TrackPoint]) -> [TrackPoint] {
        points.sorted { ($0.timestamp, $0.x, $0.y, $0.floor ?? 0) < ($1.timestamp, $1.x, $1.y, $1.floor ?? 0) }
    }

    /// The zone of `track` (ordered, not empty) interpolated to `time`; nil more than
    /// ``spanMargin`` outside its time span. zones.py `true_zone`.
    static func trueZone(zones: PlanZones, track: [TrackPoint], at time: Double) -> String? {
        let n = track.count
        guard time >= track[0].timestamp - spanMargin, time <= track[n - 1].timestamp + spanMargin else { return nil }
        // bisect_left: the first row at or after `time`.
        let i = min(max(track.lowerBound(of: time, by: \.timestamp), 1), n - 1)
        // One row: Python's track[i - 1] is track[-1], the same row.
        let a = track[i == 0 ? n - 1 : i - 1], b = track[i]
        let weight = b.timestamp > a.timestamp ? min(max((time - a.timestamp) / (b.timestamp - a.timestamp), 0), 1) : 0
        return zones.zone(atX: a.x + weight * (b.x - a.x), y: a.y + weight * (b.y - a.y), level: a.floor ?? 0)
    }
}
