/// The engine's devices: their tracks in one array, found by name through a dictionary with
/// the last device remembered (consecutive samples usually come from the same phone), and when
/// each was last heard, for releasing idle ones.
struct DeviceTable: Sendable {
    private(set) var tracks: [DeviceTrack] = []
    /// When each track last got a sample (same order as `tracks`), seconds.
    private(set) var lastHeard: [Double] = []
    private var index: [String?: Int] = [:]
    private var lastDevice: String??
    private var lastSlot = 0

    var count: Int { tracks.count }

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
        let slot = tracks.count
        index[track.device] = slot
        tracks.append(track)
        lastHeard.append(-.infinity)
        lastDevice = .some(track.device)
        lastSlot = slot
        return slot
    }

    /// Notes that the track in `slot` got a sample at `time`.
    mutating func heard(_ slot: Int, at time: Double) {
        if time > lastHeard[slot] { lastHeard[slot] = time }
    }

    /// Feeds a sample to the track in `slot` (see ``DeviceTrack/add(_:context:into:)``).
    mutating func add(_ sample: DeviceTrack.Pending, to slot: Int, context: inout EpochContext,
                      into reports: inout [PositionReport]) -> Bool {
        tracks[slot].add(sample, context: &context, into: &reports)
    }

    /// Closes every open epoch of the track in `slot`.
    mutating func flush(_ slot: Int, context: inout EpochContext, into reports: inout [PositionReport]) {
        tracks[slot].flush(context: &context, into: &reports)
    }

    /// Removes the track in `slot` (the last one takes its place; nothing is copied).
    mutating func remove(_ slot: Int) {
        index[tracks[slot].device] = nil
        let last = tracks.count - 1
        if slot != last {
            tracks.swapAt(slot, last)
            lastHeard.swapAt(slot, last)
            index[tracks[slot].device] = slot
        }
        tracks.removeLast()
        lastHeard.removeLast()
        lastDevice = nil
    }

    /// Slots of the tracks last heard before `time`, in device-name order.
    func idle(before time: Double) -> [Int] {
        lastHeard.indices.filter { lastHeard[$0] < time }.sorted { Self.precedes(tracks[$0].device, tracks[$1].device) }
    }

    /// All slots in device-name order (nil first), the order ``PositioningEngine/finish()`` closes them in.
    func allInNameOrder() -> [Int] {
        tracks.indices.sorted { Self.precedes(tracks[$0].device, tracks[$1].device) }
    }

    private static func precedes(_ a: String?, _ b: String?) -> Bool { (a ?? "") < (b ?? "") }
}
