import IndoorPositioning

/// Decides, while the samples stream by, whether a file can be positioned in one pass, and
/// what to do when it cannot.
///
/// The engine takes each device's samples in time order up to its reorder delay; the
/// ``BatchLocator`` gives it the delay a file needs: the largest step back in time within one device plus
/// 0.05 s (at most 1 s), or sorts the file in memory when some row steps back more than
/// ``window``. That is decided on the way, in the one pass:
/// - a file without a device column streams with the largest delay (1 s): for one device the
///   positions do not depend on the delay while no sample is late;
/// - a file with devices streams with 0.05 s (the delay of a file in order), because there the
///   delay decides when each device's epochs close and so the order of the devices' rows in
///   the output.
/// A row that does not fit the pass (further back than the window, or stepping back at all in
/// a file with devices) ends it: the rest of the file is read for its largest step back, and
/// the locator starts over with the right delay, or sorted (and the summary says so).
///
/// While the rows come in time order (each at or after every row before it), no row can step
/// back within its device, and nothing is kept per device. At the first row that comes earlier
/// than one before it, each device's latest time is needed: the rows taken so far are read
/// again from the file (``earlierRows``) to build it, once, and from then on each device's
/// latest time is kept while the device is active; with idle release, devices not heard for
/// 1.5 × the idle-release time (after the engine released them) are forgotten, so memory
/// follows the active devices.
struct SampleOrder {
    /// How `locate` goes through the file.
    enum Pass: Equatable {
        /// Stream, taking rows up to `stepBack` seconds behind their device's latest, with a
        /// reorder delay of `stepBack` + 0.05 s (at most 1 s).
        case stream(stepBack: Double)
        /// Read everything, sort by device and time, then position.
        case sorted

        /// The engine's reorder delay in this pass.
        var reorderDelay: Double {
            if case .stream(let stepBack) = self { return min(stepBack + 0.05, 1) }
            return 0
        }
    }

    /// How far (seconds) a sample may be behind its device's latest and still be streamed.
    static let window = 0.95

    /// The pass to try first.
    static func firstPass(hasDevices: Bool) -> Pass {
        .stream(stepBack: hasDevices ? 0 : window)
    }

    /// The pass a file needs whose largest step back within a device is `stepBack` seconds.
    static func pass(forStepBack stepBack: Double) -> Pass {
        stepBack <= window ? .stream(stepBack: stepBack) : .sorted
    }

    /// The largest step back this pass can take.
    private let tolerance: Double
    private let forgetAfter: Double?
    private var latest = DeviceNameTable<Double>(filler: -.infinity)
    /// The device of the previous sample, its slot in `latest` and its latest time (`isStale`:
    /// later than the table's entry, which is brought up to date when another device comes).
    private var current: String??
    private var currentSlot = 0
    private var currentLatest = -Double.infinity
    private var isStale = false
    private var clock = -Double.infinity
    private var nextSweep = -Double.infinity
    /// The largest step back seen, seconds.
    private(set) var largestStepBack = 0.0
    /// Hands the first `count` rows given to ``admits(_:)`` to `body` again, in order.
    typealias EarlierRows = (_ count: Int, _ body: (RSSISample) -> Void) throws(FileError) -> Void
    private let earlierRows: EarlierRows
    /// Whether each device's latest time is kept (false while every row came in time order).
    private(set) var keepsLatest = false
    /// Rows given to ``admits(_:)`` so far.
    private var rows = 0

    /// A check for `pass`, on a stream whose idle devices are released after `idleRelease`
    /// seconds (nil: never, and every device's latest time is kept), that reads the rows it was
    /// given again through `earlierRows` when they stop coming in time order.
    init(pass: Pass, idleRelease: Double?, earlierRows: @escaping EarlierRows) {
        if case .stream(let stepBack) = pass { tolerance = stepBack } else { tolerance = .infinity }
        forgetAfter = idleRelease.map { 1.5 * $0 }
        self.earlierRows = earlierRows
    }

    /// Whether `sample` can be streamed exactly in this pass.
    /// - Throws: what reading the earlier rows again throws (at most once per check).
    mutating func admits(_ sample: RSSISample) throws(FileError) -> Bool {
        if !keepsLatest {
            // In time order so far: no device's latest is after the clock.
            if sample.timestamp >= clock {
                clock = sample.timestamp
                rows += 1
                return true
            }
            try keepLatest()
        }
        rows += 1
        return admitsKeepingLatest(sample)
    }

    /// Builds each device's latest time from the rows taken so far, as if it had been kept from
    /// the first row on (every one of them is admitted again: none stepped back).
    private mutating func keepLatest() throws(FileError) {
        keepsLatest = true
        clock = -.infinity
        var replay = self
        try earlierRows(rows) { sample in _ = replay.admitsKeepingLatest(sample) }
        self = replay
    }

    private mutating func admitsKeepingLatest(_ sample: RSSISample) -> Bool {
        let time = sample.timestamp
        if current == .some(sample.device) {
            if time < currentLatest { return stepsBack(currentLatest - time) }
            isStale = isStale || time != currentLatest
            currentLatest = time
        } else {
            writeBack()
            current = .some(sample.device)
            // One lookup for a device that changes every row (rows of many devices in time
            // order): its entry is read and, unless this row steps back, set to this time.
            currentSlot = latest.slot(of: sample.device, inserting: { -.infinity }).slot
            let stored = latest[slot: currentSlot]
            if time < stored {
                currentLatest = stored
                return stepsBack(stored - time)
            }
            latest[slot: currentSlot] = time
            currentLatest = time
        }
        if time > clock {
            clock = time
            if let forgetAfter, clock >= nextSweep {
                nextSweep = clock + forgetAfter / 2
                writeBack()
                let cutoff = clock - forgetAfter
                latest.filter { $0 >= cutoff }
                // The slots moved: the next row looks its device up again.
                current = nil
            }
        }
        return true
    }

    /// Brings the previous device's entry up to date with its latest time.
    private mutating func writeBack() {
        if isStale { latest[slot: currentSlot] = currentLatest }
        isStale = false
    }

    /// A row `stepBack` seconds behind its device's latest: noted, and whether this pass takes it.
    private mutating func stepsBack(_ stepBack: Double) -> Bool {
        largestStepBack = max(largestStepBack, stepBack)
        return stepBack <= tolerance
    }

    /// Reads the rest of `reader` for its largest step back and returns the pass the whole
    /// file needs.
    mutating func passAfterReading(_ reader: RSSISampleReader) throws(FileError) -> Pass {
        while largestStepBack <= Self.window, let sample = try reader.next() { _ = try admits(sample) }
        return Self.pass(forStepBack: largestStepBack)
    }
}
