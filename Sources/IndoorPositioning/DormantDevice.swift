/// A device that has not been heard for a while and has not closed an epoch yet, kept as the
/// samples of its open epoch only (about 100 bytes for a phone heard once, against about 2 KB
/// for its track with the per-beacon buffers).
///
/// Until a device's first epoch closes, its track is its epoch grid and its pending samples and
/// nothing else, and the grid's start is the earliest of those samples
/// (``EpochGrid/admit(_:)``). So a track rebuilt from the samples, in the order they came, is
/// the track that was put to sleep: the reports never depend on whether a device slept.
struct DormantDevice: Sendable {
    /// The first sample, held inline so that a phone heard once costs no array.
    let first: DeviceTrack.Pending
    /// The other samples, in the order they came.
    let rest: [DeviceTrack.Pending]

    /// When the device was last heard, seconds: its latest sample (what idle release orders
    /// devices by).
    var heard: Double { rest.reduce(first.time) { max($0, $1.time) } }

    /// Hands each sample to `body`, in the order they came.
    func forEachSample(_ body: (DeviceTrack.Pending) -> Void) {
        body(first)
        rest.forEach(body)
    }
}
