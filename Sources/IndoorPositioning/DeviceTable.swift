/// The engine's devices: their tracks in one array, found by name through a hash table
/// (``DeviceNameTable``) with the last device remembered (consecutive samples usually come from
/// the same phone), and when each was last heard, for releasing idle ones. A released track's
/// slot is emptied in place and reused by the next new device, so no track is ever moved or
/// copied.
///
/// Devices not heard for a while are kept small (``compact(before:)``): one that has closed no
/// epoch sleeps as a ``DormantDevice`` outside the array, and a tracked one gives up its scratch
/// space. Neither changes a report.
struct DeviceTable: Sendable {
    /// Tracks by slot; nil for a free slot.
    private var slots: [DeviceTrack?] = []
    /// When each slot's track last got a sample, seconds (+∞ for a free slot).
    private var lastHeard: [Double] = []
    private var free: [Int] = []
    private var index = DeviceNameTable<Int>(filler: -1)
    private var lastDevice: String??
    private var lastSlot = 0
    /// Devices asleep, by name.
    private var asleep = DeviceNameTable<DormantDevice>(filler: DormantDevice.filler)
    /// Slots used since the last compaction (each once; the next pass looks only at these).
    private var awake: [Int] = []
    private var isAwake: [Bool] = []

    /// Devices held, awake or asleep.
    var count: Int { slots.count - free.count + asleep.count }

    /// Devices asleep.
    var asleepCount: Int { asleep.count }

    /// Every track held, in slot order.
    var tracks: [DeviceTrack] { slots.compactMap { $0 } }

    /// The slot of `device`'s track, or nil when it has none.
    mutating func slot(of device: String?) -> Int? {
        var hash: UInt64?
        return slot(of: device, hash: &hash)
    }

    /// ``slot(of:)`` with the device's ``DeviceNameHash`` if known; when the lookup needs it and
    /// it is not, it is computed and left in `hash` for the next lookup of the same device.
    mutating func slot(of device: String?, hash: inout UInt64?) -> Int? {
        if let lastDevice, lastDevice == device { return lastSlot }
        let known = hash ?? DeviceNameHash.of(device)
        hash = known
        guard let entry = index.slot(of: device, hash: known) else { return nil }
        let found = index[slot: entry]
        lastDevice = .some(device)
        lastSlot = found
        return found
    }

    /// Adds a track of a device that has none and returns its slot. A device asleep wakes into
    /// it: its samples are taken into `track` first (and it was last heard at its latest).
    mutating func insert(_ track: consuming DeviceTrack) -> Int {
        insert(track, hash: DeviceNameHash.of(track.device))
    }

    /// ``insert(_:)`` for a track whose device's ``DeviceNameHash`` is `hash`.
    mutating func insert(_ track: consuming DeviceTrack, hash: UInt64) -> Int {
        var track = track
        var heard = -Double.infinity
        if !asleep.isEmpty, let entry = asleep.slot(of: track.device, hash: hash) {
            let dormant = asleep.remove(slot: entry)
            track.restore(dormant)
            heard = dormant.heard
        }
        let slot: Int
        if let reused = free.popLast() {
            slot = reused
            slots[slot] = track
            lastHeard[slot] = heard
        } else {
            slot = slots.count
            slots.append(track)
            lastHeard.append(heard)
            isAwake.append(false)
        }
        index.set(slot, for: track.device, hash: hash)
        lastDevice = .some(track.device)
        lastSlot = slot
        markAwake(slot)
        return slot
    }

    /// Holds `sample` of a device without a track as samples only (``DormantDevice``) when it
    /// cannot close the device's first epoch: the first sample of a new device, or one more
    /// sample of a device held so, inside that epoch. False (nothing held) when the device needs
    /// its track: ``insert(_:)`` then wakes it with its samples.
    /// `hash` is the device's ``DeviceNameHash``.
    mutating func holdWithoutTrack(
        _ sample: DeviceTrack.Pending, of device: String?, hash: UInt64, epoch: Double, reorderDelay: Double
    )
        -> Bool
    {
        // One lookup: a new device is inserted holding the sample, a held one changed in place.
        let (entry, inserted) = asleep.slot(of: device, hash: hash, inserting: { DormantDevice(first: sample) })
        if inserted { return true }
        return asleep.update(slot: entry) { dormant in
            guard dormant.keepsFirstEpochOpen(at: sample.time, epoch: epoch, reorderDelay: reorderDelay) else {
                return false
            }
            dormant.append(sample)
            return true
        }
    }

    /// Whether `device` is asleep.
    func isAsleep(_ device: String?) -> Bool { asleep.slot(of: device) != nil }

    /// The devices asleep, heard last before `time` (all with +∞).
    func asleep(heardBefore time: Double) -> [String?] {
        asleep.occupiedSlots.compactMap { asleep[slot: $0].heard < time ? asleep.name(at: $0) : nil }
    }

    /// Keeps small every device not heard since `time`, among those used since the last call:
    /// one that has closed no epoch goes to sleep (its slot is freed), a tracked one frees its
    /// scratch space (``DeviceTrack/releaseScratch()``).
    mutating func compact(before time: Double) {
        var kept = 0
        for i in awake.indices {
            let slot = awake[i]
            guard slots[slot] != nil else {
                isAwake[slot] = false
                continue
            }
            guard lastHeard[slot] < time else {
                awake[kept] = slot
                kept += 1
                continue
            }
            isAwake[slot] = false
            if let dormant = slots[slot]!.dormant() {
                let device = slots[slot]!.device
                remove(slot)
                asleep.set(dormant, for: device)
            } else {
                slots[slot]!.releaseScratch()
            }
        }
        awake.removeLast(awake.count - kept)
    }

    private mutating func markAwake(_ slot: Int) {
        guard !isAwake[slot] else { return }
        isAwake[slot] = true
        awake.append(slot)
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
        markAwake(slot)
        return slots[slot]!.add(sample, context: &context, into: &reports)
    }

    /// Closes every open epoch of the track in `slot`.
    mutating func flush(_ slot: Int, context: inout EpochContext, into reports: inout [PositionReport]) {
        markAwake(slot)
        slots[slot]!.flush(context: &context, into: &reports)
    }

    /// Advances the track in `slot` to `time` without a sample (see
    /// ``DeviceTrack/advance(to:context:into:)``).
    mutating func advance(
        _ slot: Int, to time: Double, context: inout EpochContext,
        into reports: inout [PositionReport]
    ) {
        markAwake(slot)
        slots[slot]!.advance(to: time, context: &context, into: &reports)
    }

    /// Frees the slot of a track (the track is dropped in place).
    mutating func remove(_ slot: Int) {
        guard let track = slots[slot] else { return }
        if let entry = index.slot(of: track.device) { index.remove(slot: entry) }
        slots[slot] = nil
        lastHeard[slot] = .infinity
        free.append(slot)
        lastDevice = nil
    }

    /// Slots of the tracks last heard before `time`, the longest silent first (device-name
    /// order between equal times).
    func idle(before time: Double) -> [Int] {
        lastHeard.indices.filter { lastHeard[$0] < time }.sorted {
            Self.idleOrder((lastHeard[$0], slots[$0]?.device ?? ""), (lastHeard[$1], slots[$1]?.device ?? ""))
        }
    }

    /// The order idle release finishes devices in: the longest silent first (`heard`, seconds),
    /// then by name ("" for none); also how a sharded engine orders its workers' idle devices.
    static func idleOrder(_ a: (heard: Double, name: String), _ b: (heard: Double, name: String)) -> Bool {
        a.heard != b.heard ? a.heard < b.heard : a.name < b.name
    }

    /// A device held: awake in a slot, or asleep (with its place among the devices asleep, so
    /// that finishing it needs no second lookup while that table is not changed).
    enum Held {
        case awake(slot: Int)
        case asleep(device: String?, index: Int)
    }

    /// Every device held, awake or asleep, in device-name order (nil first): the order
    /// ``PositioningEngine/finish()`` closes them in.
    func allHeldInNameOrder() -> [(name: String, device: Held)] {
        var held: [(name: String, device: Held)] = []
        held.reserveCapacity(count)
        for slot in slots.indices {
            if let track = slots[slot] { held.append((track.device ?? "", .awake(slot: slot))) }
        }
        for index in asleep.occupiedSlots {
            let device = asleep.name(at: index)
            held.append((device ?? "", .asleep(device: device, index: index)))
        }
        held.sort { $0.name < $1.name }
        return held
    }

    /// When the track in `slot` last got a sample, and its device (for merging the idle devices
    /// of several tables in ``idle(before:)`` order).
    func heardAndDevice(_ slot: Int) -> (heard: Double, device: String?) {
        (lastHeard[slot], slots[slot]?.device)
    }

    /// The samples of a device asleep at `index` (from ``allHeldInNameOrder()``, the devices
    /// asleep unchanged since).
    func dormant(at index: Int) -> DormantDevice {
        asleep[slot: index]
    }

    /// Forgets every device asleep, at once: the end of the input, after each was finished
    /// through ``dormant(at:)``.
    mutating func forgetAsleep() {
        asleep.removeAll()
    }

    /// All slots in device-name order (nil first), the order ``PositioningEngine/finish()`` closes them in.
    func allInNameOrder() -> [Int] {
        slots.indices.filter { slots[$0] != nil }.sorted { precedes($0, $1) }
    }

    private func precedes(_ a: Int, _ b: Int) -> Bool {
        (slots[a]?.device ?? "") < (slots[b]?.device ?? "")
    }
}
