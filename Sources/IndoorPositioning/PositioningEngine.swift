/// The whole pipeline: RSSI samples in, positions out, per device.
///
/// For each device the samples are cut into epochs (``Configuration/epoch``, 1 s by default).
/// At the end of an epoch the engine chooses the floor (with hysteresis), solves a robust
/// maximum-likelihood fix from each beacon's mean RSSI, lets the Kalman tracker fuse every
/// sample at its own timestamp, checks the track against the fix, and reports the position at
/// the epoch's end with its zone and a 1-sigma accuracy. Devices are independent.
///
/// ## Streaming
/// ```swift
/// var engine = try PositioningEngine(plan: plan)
/// engine.push(sample)                       // as samples arrive, in time order per device
/// for report in engine.pull() { show(report) }
/// ```
/// `PositioningEngine` is a `Sendable` value: one owner pushes and pulls. It holds no locks and
/// starts no tasks, so it fits a ranging callback, a loop over a file, or an actor of yours
/// that serialises access when several tasks feed it.
///
/// ## Batch
/// ``locate(_:plan:calibration:configuration:smooth:)`` positions a whole batch (any order),
/// optionally with the Rauch–Tung–Striebel smoother.
public struct PositioningEngine: Sendable {
    /// The plan positions are computed in.
    public let plan: FloorPlan
    var context: EpochContext
    var devices = DeviceTable()
    /// A new track of no device: every device's track starts as a copy of it (sharing its
    /// buffers until the first write), so that making one validates and allocates nothing.
    let newTrack: DeviceTrack
    /// The track the last device finished from its samples alone was rebuilt in (end of input),
    /// kept so that the next one reuses its buffers (``DeviceTrack/recycle(as:like:)``).
    private(set) var finisher: DeviceTrack?
    var ready: [PositionReport] = []
    /// The latest sample time pushed (any device), the clock idle devices are released by.
    private var clock = -Double.infinity
    /// When the next look for idle devices is due (see ``Configuration/idleRelease``).
    private var nextIdleCheck = -Double.infinity
    /// When the next compaction of idle devices is due (see ``Configuration/compactAfter``).
    private var nextCompaction = -Double.infinity
    /// A worker of a sharded run: idle release and the adoption of learned models are left to
    /// the coordinator (``ShardedPositioningEngine``), which sees every device's clock.
    var coordinated = false

    /// The settings in force.
    public var configuration: Configuration { context.configuration }
    /// What has been counted so far (accepted, unknown, invalid and late samples, reports).
    public var statistics: Statistics { context.statistics }

    /// Each beacon's running mean of its normalised squared residual against the tracks, in
    /// plan order (about 1 for a beacon that fits; see ``inconsistentBeacons``).
    public var consistencyScores: [(beacon: BeaconIdentity, score: Double)] {
        (0..<context.beacons.count).map { (context.beacons[$0].beacon.identity, context.consistency.score(slot: $0)) }
    }

    /// Beacons currently set apart because their readings have kept disagreeing with the
    /// tracked positions (a moved or spoofed beacon, or one behind an obstacle the plan does not
    /// know), in plan order. Only beacons with a measured model (a calibration given to the
    /// engine, or a model learned from traffic) are ever set apart. Empty when
    /// ``Configuration/excludesInconsistentBeacons`` is off.
    public var inconsistentBeacons: [BeaconIdentity] {
        (0..<context.beacons.count).filter { context.isSetApart($0) }.map { context.beacons[$0].beacon.identity }
    }

    /// The detection curve learned from the traffic so far, when the engine learns one
    /// (``Configuration/learnsDetection``, on a plan with a floor outline and with
    /// ``Configuration/constrainToOutline``; nil otherwise).
    public var learnedDetection: LearnedDetection? {
        context.site.learnsDetection ? context.learnedDetection : nil
    }

    /// The online learner's estimates of every beacon's path-loss model, in plan order (nil
    /// unless ``Configuration/learning`` is on): what a site would save as its calibration.
    public var learnedModels: [LearnedPathLoss]? { context.learner?.estimates }

    /// The online learner itself (nil unless ``Configuration/learning`` is on): `Codable`, so its
    /// statistics can be saved and merged into another engine's learner later
    /// (``resumeLearning(from:)``).
    public var learner: SiteCalibrator? { context.learner }

    /// Continues online learning from a learner saved earlier (``learner``, for example
    /// yesterday's): its statistics are added to this engine's learner for the beacons both
    /// know, and the models of the beacons learned from traffic are taken into use at once (one
    /// model update, counted in ``Statistics/learnedModelUpdates``), so the first positions use
    /// them. Call it before pushing samples.
    /// - Throws: ``PositioningError/invalidConfiguration(_:)`` when ``Configuration/learning`` is
    ///   off (there is no learner to continue).
    public mutating func resumeLearning(from saved: SiteCalibrator) throws(PositioningError) {
        guard context.learner != nil else {
            throw .invalidConfiguration("resumeLearning(from:) needs online learning: set Configuration.learning")
        }
        context.resumeLearning(from: saved)
    }

    /// An engine for `plan`.
    /// - Parameters:
    ///   - plan: the building.
    ///   - calibration: per-beacon path-loss models that override the plan's values (for
    ///     example from a calibration file); beacons not listed use the plan's.
    ///   - configuration: the settings (validated).
    /// - Throws: ``PositioningError`` for a bad setting or a plan without beacons.
    public init(
        plan: FloorPlan, calibration: [BeaconIdentity: PathLossModel] = [:],
        configuration: Configuration = Configuration()
    ) throws(PositioningError) {
        try configuration.validate()
        guard plan.beaconCount > 0 else { throw .emptyPlan }
        self.plan = plan
        let table = BeaconTable(
            plan: plan, calibration: calibration, sampleSigma: configuration.sampleSigma,
            wallAttenuation: configuration.wallAttenuation, uncertainty: configuration.modelUncertainty)
        context = EpochContext(
            configuration: configuration, beacons: table,
            receiverHeight: plan.defaults.receiverHeight)
        newTrack = try DeviceTrack(
            device: nil, levels: table.levels, epoch: configuration.epoch, floor: configuration.floor)
    }

    /// Feeds one sample. Samples of one device must come in time order (up to
    /// ``Configuration/reorderDelay``); devices may interleave freely.
    /// - Returns: what happened to the sample; rejected samples are also counted in
    ///   ``statistics``. Never throws: bad samples are dropped, never fatal.
    @discardableResult
    public mutating func push(_ sample: RSSISample) -> SampleOutcome {
        push(sample, deviceHash: nil)
    }

    /// ``push(_:)`` with the ``DeviceNameHash`` of the sample's device when the caller has it
    /// (a reader that hashed the name's bytes), so that the device is looked up without hashing
    /// its name again; nil: hashed here when needed.
    @discardableResult
    package mutating func push(_ sample: RSSISample, deviceHash: UInt64?) -> SampleOutcome {
        guard RSSISample.isUsableTimestamp(sample.timestamp) else {
            context.statistics.invalidTime += 1
            return .invalidTime
        }
        if let rejection = RSSIReading.rejection(of: sample.rssi) {
            context.statistics.invalidRSSI += 1
            return .invalidRSSI(rejection)
        }
        guard let slot = context.beacons.slot(of: sample.identity) else {
            context.statistics.unknownBeacon += 1
            return .unknownBeacon
        }
        let pending = DeviceTrack.Pending(
            time: sample.timestamp, slot: slot, rssi: sample.rssi, activity: sample.activity)
        let used: Bool
        var known = deviceHash
        if let index = devices.slot(of: sample.device, hash: &known) {
            used = add(pending, to: index)
        } else {
            // A lookup that misses has computed the hash (kept in `known`).
            let hash = known ?? DeviceNameHash.of(sample.device)
            if configuration.compactAfter != nil,
                devices.holdWithoutTrack(
                    pending, of: sample.device, hash: hash, epoch: configuration.epoch,
                    reorderDelay: configuration.reorderDelay)
            {
                // A device that has closed no epoch is its samples until one would close an epoch.
                used = true
            } else {
                // A device held as samples wakes into the new track with them.
                used = add(pending, to: devices.insert(makeTrack(for: sample.device), hash: hash))
            }
        }
        if sample.timestamp > clock {
            clock = sample.timestamp
            if clock >= nextIdleCheck && !coordinated { releaseIdleDevices() }
            if clock >= nextCompaction { compactIdleDevices() }
            if context.learner != nil && !coordinated { context.updateModels(at: clock) }
        }
        if used {
            context.statistics.accepted += 1
            if sample.activity != nil { context.statistics.activityHints += 1 }
            return .accepted
        }
        context.statistics.late += 1
        return .late
    }

    /// Feeds a sample to the track in `index`; whether it was used (not late).
    private mutating func add(_ sample: DeviceTrack.Pending, to index: Int) -> Bool {
        let before = ready.count
        let used = devices.add(sample, to: index, context: &context, into: &ready)
        context.statistics.reports += ready.count - before
        if used { devices.heard(index, at: sample.time) }
        fitDetectionIfDue()
        return used
    }

    /// Fits the detection curve when the determined fixes recorded make a fit due
    /// (``Configuration/learnsDetection``); a worker of a sharded run leaves it to its coordinator.
    private mutating func fitDetectionIfDue() {
        guard !coordinated,
            context.detectionFitIsDue(
                fixes: context.statistics.detections.fixes, fallbacks: context.statistics.fallbackReports)
        else { return }
        context.fitDetection(from: context.statistics.detections, varianceFactor: context.statistics.varianceFactor)
    }

    /// Devices currently tracked (heard and not yet released), awake or asleep.
    public var activeDeviceCount: Int { devices.count }

    /// Devices held as their samples only (about 100 bytes each): without a closed epoch, and either
    /// new (heard for less than an epoch) or asleep (not heard for ``Configuration/compactAfter``),
    /// until a sample would close their first epoch, or the end. None when `compactAfter` is nil.
    public var asleepDeviceCount: Int { devices.asleepCount }

    /// A new track for `device`.
    private func makeTrack(for device: String?) -> DeviceTrack {
        var track = newTrack
        track.device = device
        return track
    }

    /// Wakes `device` if it is asleep: its track is rebuilt from its samples (the same track).
    mutating func wake(_ device: String?) {
        guard devices.isAsleep(device) else { return }
        _ = devices.insert(makeTrack(for: device))
    }

    /// Keeps every device not heard for ``Configuration/compactAfter`` seconds of input time
    /// small (see the configuration). Looked at every quarter of that time, only among the
    /// devices used since the last look.
    private mutating func compactIdleDevices() {
        guard let after = configuration.compactAfter else {
            nextCompaction = .infinity
            return
        }
        nextCompaction = clock + after / 4
        devices.compact(before: clock - after)
    }

    /// Finishes and forgets every device not heard for ``Configuration/idleRelease`` seconds of
    /// input time (the clock is the latest sample time pushed): its open epochs are closed (the
    /// reports wait in ``pull()``) and its state is freed, so memory follows the devices active
    /// at once, not all devices ever seen. Looked at every quarter of that time; the longest
    /// silent are finished first. A released device heard again starts a new track.
    private mutating func releaseIdleDevices() {
        guard let idle = configuration.idleRelease, !configuration.recordsHistory else {
            nextIdleCheck = .infinity
            return
        }
        nextIdleCheck = clock + idle / 4
        let released = idleDevices(before: clock - idle)
        guard !released.isEmpty else { return }
        release(released)
    }

    /// The slots of the devices last heard before `time` (asleep ones woken), the longest
    /// silent first (device-name order between equal times): the order idle release closes them in.
    mutating func idleDevices(before time: Double) -> [Int] {
        for device in devices.asleep(heardBefore: time) { wake(device) }
        return devices.idle(before: time)
    }

    /// Finishes and forgets the devices in `slots`, in that order (see ``releaseIdleDevices()``).
    mutating func release(_ slots: [Int]) {
        close(slots, forgetting: true)
        context.statistics.releasedDevices += slots.count
    }

    /// Closes every open epoch of the tracks in `slots`, in that order (their reports wait in
    /// ``pull()`` and are counted), and with `forgetting` frees the tracks.
    private mutating func close(_ slots: [Int], forgetting: Bool) {
        let before = ready.count
        for index in slots {
            devices.flush(index, context: &context, into: &ready)
            fitDetectionIfDue()
        }
        if forgetting {
            // Remove from the highest slot down so that the slots still to remove stay valid.
            for index in slots.sorted(by: >) { devices.remove(index) }
        }
        context.statistics.reports += ready.count - before
    }

    /// The reports of the epochs closed since the last call, oldest first per device.
    public mutating func pull() -> [PositionReport] {
        defer { ready.removeAll(keepingCapacity: true) }
        return ready
    }

    /// Hands each report of the epochs closed since the last call to `body`, oldest first per
    /// device, like ``pull()`` but without building an array (for loops that must not allocate).
    public mutating func drain(_ body: (PositionReport) throws -> Void) rethrows {
        defer { ready.removeAll(keepingCapacity: true) }
        for report in ready { try body(report) }
    }

    /// Closes every open epoch (end of input) and returns the remaining reports. Each report is
    /// stamped at its epoch's end (a raw fix at its middle), never later, so the last one may
    /// stand up to one epoch after the last sample.
    ///
    /// The engine stays usable: a sample pushed afterwards continues its device's track, unless
    /// its epoch is already closed, in which case it is counted ``Statistics/late`` (no epoch is
    /// ever reported twice). Make a new engine to start afresh.
    public mutating func finish() -> [PositionReport] {
        for device in devices.asleep(heardBefore: .infinity) { wake(device) }
        close(devices.allInNameOrder(), forgetting: false)
        return pull()
    }

    /// Closes every open epoch (end of input) like ``finish()``, with the same reports in the
    /// same order, but device by device: each device's reports go to `body` as soon as they are
    /// made and its state is freed, so that the end of a batch of many devices never holds them
    /// all awake at once. A sample pushed afterwards starts a new track for its device.
    public mutating func finishReleasing(_ body: (PositionReport) throws -> Void) rethrows {
        for held in devices.allHeldInNameOrder() {
            finishReleasing(held.device)
            try drain(body)
        }
        forgetAsleep()
    }

    /// Forgets every device asleep, once each was finished one by one (the end of the input), and
    /// the track they were finished in.
    mutating func forgetAsleep() {
        devices.forgetAsleep()
        finisher = nil
    }

    /// Closes the open epochs of one held device (reports wait in ``pull()``) and frees it (a
    /// device asleep is left in the table for ``DeviceTable/forgetAsleep()`` once all are done).
    mutating func finishReleasing(_ held: DeviceTable.Held) {
        switch held {
        case .awake(let slot):
            close([slot], forgetting: true)
        case .asleep(let device, let index):
            // Rebuilt and flushed outside the table, in the track the device before was finished
            // in (its buffers reused; everything else a new track's).
            // Worked on in place: the track is large, and each copy moves all of it.
            if finisher == nil {
                finisher = makeTrack(for: device)
            } else {
                finisher!.recycle(as: device, like: newTrack)
            }
            finisher!.restore(devices.dormant(at: index))
            let before = ready.count
            finisher!.flush(context: &context, into: &ready)
            context.statistics.reports += ready.count - before
            fitDetectionIfDue()
        }
    }

    /// Closes the open epochs of one held device and keeps it (its history stays for
    /// ``smooth(_:)``), as ``finish()`` does; reports wait in ``pull()``.
    mutating func finishKeeping(_ held: DeviceTable.Held) {
        let slot: Int?
        switch held {
        case .awake(let awake): slot = awake
        case .asleep(let device, _):
            wake(device)
            slot = devices.slot(of: device)
        }
        if let slot { close([slot], forgetting: false) }
    }

    /// Whether `sample` moves the engine's clock when pushed (a usable time, a reading, a beacon
    /// of the plan): the samples the clock of idle release and learning follows.
    func movesClock(_ sample: RSSISample) -> Bool {
        RSSISample.isUsableTimestamp(sample.timestamp) && RSSIReading.rejection(of: sample.rssi) == nil
            && context.beacons.slot(of: sample.identity) != nil
    }

    /// Closes the open epochs of one device and forgets it: its remaining reports wait in
    /// ``pull()`` and its state is freed. For input grouped by device (``inBatchOrder(_:)``),
    /// where a device's last sample is known, this keeps memory to the device at hand instead of
    /// every device seen. A later sample of the device starts a new track. Does nothing for a
    /// device not being tracked.
    public mutating func finish(device: String?) {
        wake(device)
        guard let index = devices.slot(of: device) else { return }
        close([index], forgetting: true)
    }

    /// Replaces the tracked reports by their Rauch–Tung–Striebel smoothed estimates, using
    /// everything the engine has seen (offline batches only).
    /// - Throws: ``PositioningError/historyNotRecorded`` unless
    ///   ``Configuration/recordsHistory`` was on from the start.
    public func smooth(_ reports: [PositionReport]) throws(PositioningError) -> [PositionReport] {
        try smooth(reports, keepingInside: true)
    }

    /// ``smooth(_:)``; with `keepingInside` false the smoothed means are reported as the
    /// smoother gives them, not moved inside the floor's outline (for learning from the
    /// traffic: a mean moved onto the outline is no longer the mean of the covariance reported
    /// with it, and it biases the distances the models are fitted to).
    func smooth(_ reports: [PositionReport], keepingInside: Bool) throws(PositioningError) -> [PositionReport] {
        guard configuration.recordsHistory else { throw .historyNotRecorded }
        var smoothedByDevice: [String?: [Double: TrackEstimate]] = [:]
        for track in devices.tracks {
            let device = track.device
            let estimates = track.smoothedEstimates()
            guard !estimates.isEmpty else { continue }
            var byTime: [Double: TrackEstimate] = [:]
            for estimate in estimates { byTime[estimate.time] = estimate }
            smoothedByDevice[device] = byTime
        }
        // Each device's reports in order, kept off the walls as the causal ones are.
        var passages: [String?: WallPassage] = [:]
        func keepOffWalls(_ report: inout PositionReport) {
            guard configuration.stopsAtWalls else { return }
            passages[report.device, default: WallPassage()].pass(
                &report, walls: context.geometry.walls(onLevel: report.level))
        }
        return reports.map { report in
            guard report.source == .tracked,
                let estimate = smoothedByDevice[report.device]?[report.timestamp]
            else {
                var kept = report
                keepOffWalls(&kept)
                return kept
            }
            var smoothed = report
            // Kept inside the outline, as the causal positions are (the smoothed tracks of the
            // bank's members are mixed, which can leave a non-convex outline).
            let inside =
                keepingInside
                ? context.geometry.keptInside(estimate.position, onLevel: report.level) : estimate.position
            smoothed.position.x = inside.x
            smoothed.position.y = inside.y
            smoothed.covariance = estimate.horizontalCovariance
            smoothed.velocity = estimate.velocity
            smoothed.source = .smoothed
            keepOffWalls(&smoothed)
            smoothed.zone = plan.zone(at: smoothed.position.planar, level: report.level)?.id
            return smoothed
        }
    }

    /// The samples grouped by device and in time order within each (stable: samples with equal
    /// times keep their order), the order ``push(_:)`` needs. O(n log n).
    public static func inBatchOrder(_ samples: [RSSISample]) -> [RSSISample] {
        samples.enumerated().sorted {
            ($0.element.device ?? "", $0.element.timestamp, $0.offset) < (
                $1.element.device ?? "", $1.element.timestamp, $1.offset
            )
        }.map(\.element)
    }

    /// Positions a whole batch of samples (any order; each device's are sorted by time).
    /// - Parameters:
    ///   - samples: the samples.
    ///   - plan: the floor plan (beacon placements, outlines, defaults).
    ///   - calibration: per-beacon path-loss models that override the plan's values.
    ///   - configuration: the engine's settings.
    ///   - smooth: also run the Rauch–Tung–Striebel smoother (Kalman tracking only).
    /// - Returns: the reports, grouped by device and in time order within each.
    public static func locate(
        _ samples: [RSSISample], plan: FloorPlan,
        calibration: [BeaconIdentity: PathLossModel] = [:],
        configuration: Configuration = Configuration(),
        smooth: Bool = false
    ) throws(PositioningError) -> [PositionReport] {
        try locate(
            samples, plan: plan, calibration: calibration, configuration: configuration, smooth: smooth,
            keepingSmoothedInside: true)
    }

    /// ``locate(_:plan:calibration:configuration:smooth:)``, with the smoothed means kept inside
    /// the outline or not (``smooth(_:keepingInside:)``).
    static func locate(
        _ samples: [RSSISample], plan: FloorPlan, calibration: [BeaconIdentity: PathLossModel],
        configuration: Configuration, smooth: Bool, keepingSmoothedInside: Bool
    ) throws(PositioningError) -> [PositionReport] {
        var configuration = configuration
        configuration.recordsHistory = configuration.recordsHistory || smooth
        var engine = try PositioningEngine(plan: plan, calibration: calibration, configuration: configuration)
        var reports: [PositionReport] = []
        for sample in inBatchOrder(samples) {
            engine.push(sample)
            reports += engine.pull()
        }
        reports += engine.finish()
        return smooth && configuration.tracking == .kalman
            ? try engine.smooth(reports, keepingInside: keepingSmoothedInside) : reports
    }
}
