/// A device that has not closed an epoch yet, kept as the samples of its open epoch only (about
/// 100 bytes for a phone heard once, against about 2 KB for its track with the per-beacon
/// buffers): a new device until a sample would close its first epoch, or a device asleep (not
/// heard for a while).
///
/// Until a device's first epoch closes, its track is its epoch grid and its pending samples and
/// nothing else, and the grid's start is the earliest of those samples
/// (``EpochGrid/admit(_:)``). So a track rebuilt from the samples, in the order they came, is
/// the track that was put to sleep: the reports never depend on whether a device slept.
struct DormantDevice: Sendable {
    /// The first sample, held inline so that a phone heard once costs no array.
    let first: DeviceTrack.Pending
    /// The other samples, in the order they came.
    private(set) var rest: [DeviceTrack.Pending]
    /// The earliest sample's time, seconds: the start of the device's epoch grid.
    private(set) var earliest: Double

    /// What the empty slots of the table of devices asleep hold (never a device's).
    static let filler = DormantDevice(first: DeviceTrack.Pending(time: 0, slot: 0, rssi: 0))

    init(first: DeviceTrack.Pending, rest: [DeviceTrack.Pending] = []) {
        self.first = first
        self.rest = rest
        earliest = rest.reduce(first.time) { min($0, $1.time) }
    }

    /// Adds a sample.
    mutating func append(_ sample: DeviceTrack.Pending) {
        rest.append(sample)
        earliest = min(earliest, sample.time)
    }

    /// Whether a sample at `time` leaves the first epoch open: a track with these samples closes
    /// its first epoch on a sample at or after the grid's start + `epoch` + `reorderDelay`
    /// (``DeviceTrack/add(_:context:into:)``; the start is the earliest sample, this one included).
    func keepsFirstEpochOpen(at time: Double, epoch: Double, reorderDelay: Double) -> Bool {
        time < min(earliest, time) + epoch + reorderDelay
    }

    /// When the device was last heard, seconds: its latest sample (what idle release orders
    /// devices by).
    var heard: Double { rest.reduce(first.time) { max($0, $1.time) } }

    /// Hands each sample to `body`, in the order they came.
    func forEachSample(_ body: (DeviceTrack.Pending) -> Void) {
        body(first)
        rest.forEach(body)
    }
}
