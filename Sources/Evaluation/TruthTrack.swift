/// A device's ground truth as a function of time: linear interpolation between samples, the
/// floor of the nearest sample, and the rule for when the truth is not known.
///
/// The rules are those of `Scripts/reference/evaluate.py`, so the two score alike:
/// - A time is *covered* when it lies within [first, last] sample time and either equals a
///   sample time or falls between two samples at most `maxGap` seconds apart, or between two
///   samples that *hold* the position: the earlier is marked `static`, or both give the same
///   position and floor (a receiver held still; a point survey with one or two rows per point).
/// - x and y are interpolated linearly between the last sample at or before the time and the
///   next one (as `numpy.interp`: among equal timestamps the last sample counts; at or after
///   the last sample, its value); after a `static` sample they stay at its position.
/// - The floor is the floor of the nearest sample in time (the earlier one on a tie).
public struct TruthTrack: Sendable {
    /// The samples, sorted by time.
    public let points: [TrackPoint]

    /// A truth track; `points` must be sorted by time (as ``TrackTable`` keeps them) and not empty.
    public init(points: [TrackPoint]) {
        precondition(!points.isEmpty, "a truth track needs at least one sample")
        self.points = points
    }

    /// The index of the first sample with timestamp ≥ `time` (`numpy.searchsorted`, side left).
    func lowerBound(_ time: Double) -> Int { points.lowerBound(of: time, by: \.timestamp) }

    /// The index of the first sample with timestamp > `time`.
    func upperBound(_ time: Double) -> Int { points.upperBound(of: time, by: \.timestamp) }

    /// Whether the truth is known at `time`: inside the span and not inside a gap longer than
    /// `maxGap` seconds.
    public func covers(_ time: Double, maxGap: Double) -> Bool {
        let n = points.count
        guard time >= points[0].timestamp, time <= points[n - 1].timestamp else { return false }
        let right = lowerBound(time)
        if right < n, points[right].timestamp == time { return true }
        guard n > 1 else { return true }
        let clipped = min(max(right, 1), n - 1)
        let a = points[clipped - 1], b = points[clipped]
        return b.timestamp - a.timestamp <= maxGap || Self.holds(a, b)
    }

    /// Whether the position holds from `a` to the next sample `b`.
    static func holds(_ a: TrackPoint, _ b: TrackPoint) -> Bool {
        a.isStatic || (a.x == b.x && a.y == b.y && a.floor == b.floor)
    }

    /// The true position at `time` (metres) and floor (nil when the truth has none).
    public func position(at time: Double) -> (x: Double, y: Double, floor: Int?) {
        let n = points.count
        let x: Double, y: Double
        if time < points[0].timestamp {
            x = points[0].x
            y = points[0].y
        } else if time >= points[n - 1].timestamp {
            x = points[n - 1].x
            y = points[n - 1].y
        } else {
            let j = upperBound(time) - 1
            let a = points[j], b = points[j + 1]
            if a.timestamp == time || a.isStatic {
                x = a.x
                y = a.y
            } else {
                let s = (time - a.timestamp) / (b.timestamp - a.timestamp)
                x = a.x + s * (b.x - a.x)
                y = a.y + s * (b.y - a.y)
            }
        }
        let right = min(lowerBound(time), n - 1)
        let left = max(right - 1, 0)
        let nearest = abs(points[left].timestamp - time) <= abs(points[right].timestamp - time) ? left : right
        return (x, y, points[nearest].floor)
    }
}
