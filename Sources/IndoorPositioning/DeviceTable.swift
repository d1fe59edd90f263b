/// The engine's devices: their tracks in one array, found by name through a dictionary with
/// the last device remembered (consecutive samples usually come from the same phone), and when
/// each was last heard, for releasing idle ones. A released track's slot is emptied in place
/// and reused by the next new device, so no track is ever moved or copied.
struct DeviceTable: Sendable {
    /// Tracks by slot; nil for a free slot.
    private var slots: [DeviceTrack?] = []
    /// When each slot's track last got a sample, seconds (+∞ for a free slot).
    private var lastHeard: [Double] = []
    private var free: [Int] = []
    private var index: [String?: Int] = [:]
    private var lastDevice: String??
    private var lastSlot = 0

    /// Tracks held.
    var count: Int { slots.count - free.count }

    /// Every track held, in slot order.
    var tracks: [DeviceTrack] { slots.compactMap { $0 } }

    /// The slot of `device`'s track, or nil when it has none.
    mutating func slot(of device: String?) -> Int? {
        if let lastDevice, lastDevice == device { return lastSlot }
        guard let found = index[device] else { return nil }
        lastDevice = .some(device)
        lastSlot = found
        return found
    }

    /// Adds a track and returns its slot.
    mutating func insert(_ track: DeviceTrack) -> Int {
        let slot: Int
        if let reused = free.popLast() {
            slot = reused
            slots[slot] = track
            lastHeard[slot] = -.infinity
        } else {
            slot = slots.count
            slots.append(track)
            lastHeard.append(-.infinity)
        }
        index[track.device] = slot
        lastDevice = .some(track.device)
        lastSlot = slot
        return slot
    }

    /// Notes that the track in `slot` got a sample at `time`.
    mutating func heard(_ slot: Int, at time: Double) {
        if time > lastHeard[slot] { lastHeard[slot] = time }
    }

    /// Feeds a sample to the track in `slot` (see ``DeviceTrack/add(_:context:into:)``).
    mutating func add(
        _ sample: DeviceTrack.Pending, to slot: Int, context: inout EpochContext,
        into reports: inout [PositionReport]
    ) -> Bool {
        slots[slot]!.add(sample, context: &context, into: &reports)
    }

    /// Closes every open epoch of the track in `slot`.
    mutating func flush(_ slot: Int, context: inout EpochContext, into reports: inout [PositionReport]) {
        slots[slot]!.flush(context: &context, into: &reports)
    }

    /// Advances the track in `slot` to `time` without a sample (see
    /// ``DeviceTrack/advance(to:context:into:)``).
    mutating func advance(
        _ slot: Int, to time: Double, context: inout EpochContext,
        into reports: inout [PositionReport]
    ) {
        slots[slot]!.advance(to: time, context: &context, into: &reports)
    }

    /// Frees the slot of a track (the track is dropped in place).
    mutating func remove(_ slot: Int) {
        guard let device = slots[slot]?.device else { return }
        index[device] = nil
        slots[slot] = nil
        lastHeard[slot] = .infinity
        free.append(slot)
        lastDevice = nil
    }

    /// Slots of the tracks last heard before `time`, the longest silent first (device-name
    /// order between equal times).
    func idle(before time: Double) -> [Int] {
        lastHeard.indices.filter { lastHeard[$0] < time }.sorted {
            lastHeard[$0] != lastHeard[$1] ? lastHeard[$0] < lastHeard[$1] : precedes($0, $1)
        }
    }

    /// All slots in device-name order (nil first), the order ``PositioningEngine/finish()`` closes them in.
    func allInNameOrder() -> [Int] {
        slots.indices.filter { slots[$0] != nil }.sorted { precedes($0, $1) }
    }

    private func precedes(_ a: Int, _ b: Int) -> Bool {
        (slots[a]?.device ?? "") < (slots[b]?.device ?? "")
    }
}
