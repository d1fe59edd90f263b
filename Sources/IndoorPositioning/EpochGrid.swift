/// A device's epoch grid: epochs of length E cover [start, start + E), the first starting at
/// the device's first sample; the grid only moves forward, by whole epochs, except that it may
/// move back to an earlier sample until the first epoch closes.
///
/// The three ways the grid advances (a sample arrives, the input ends, the clock advances
/// without samples) each skip the empty epochs in one step, so that a long gap costs no more than
/// a short one; every step is finite because `start` strictly increases or the caller stops.
struct EpochGrid: Sendable {
    /// The epoch length E, seconds.
    let length: Double
    /// The open epoch's start, seconds (nil before the first sample).
    private(set) var start: Double?
    /// Whether an epoch has closed (from then on the grid no longer moves back).
    private(set) var hasClosed = false

    init(length: Double) { self.length = length }

    /// Admits a sample at `time`: the first sample (or an earlier one before any epoch closed)
    /// starts the grid. Returns the open epoch's start, or nil when the sample is before it (late).
    mutating func admit(_ time: Double) -> Double? {
        if start == nil || (!hasClosed && time < start!) { start = time }
        guard let start, time >= start else { return nil }
        return start
    }

    /// Records that an epoch closed.
    mutating func markClosed() { hasClosed = true }

    /// The start after the epoch at `start` closed while a sample waits: the next epoch, or, when
    /// the earliest pending sample (`earliest`) is further on, the epoch that holds it. Nil when
    /// Double's resolution stops the grid from advancing.
    mutating func afterSample(from start: Double, earliest: Double) -> Double? {
        let next = start + length
        let skipped = max(0, ((earliest - next) / length).rounded(.down))
        guard next > start else { return nil }
        self.start = max(next, next + skipped * length)
        return self.start
    }

    /// The start after the epoch at `start` closed at the end of the input: the epoch that holds
    /// the earliest sample still pending, or past the last closed epoch when none is (then nil:
    /// the grid is done; a sample pushed later is late). Nil too when the grid cannot advance.
    mutating func afterFlush(from start: Double, earliest: Double?) -> Double? {
        guard let earliest else {
            self.start = start + length
            return nil
        }
        let next = start + length * max(1, ((earliest - start) / length).rounded(.down))
        guard next > start else { return nil }
        self.start = next
        return next
    }

    /// The start after the epoch ending at `end` was passed by the clock: `end`, or, when nothing
    /// is to be reported until `next` (the next pending sample or the clock's limit, seconds) and
    /// `skipping`, the epoch before the one that holds `next`.
    mutating func afterClock(end: Double, next: Double, skipping: Bool) -> Double {
        var start = end
        if skipping {
            let skipped = ((next - start) / length).rounded(.down) - 1
            if skipped > 0 { start += skipped * length }
        }
        self.start = start
        return start
    }
}
