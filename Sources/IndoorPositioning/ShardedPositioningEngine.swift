import Dispatch
import Foundation

/// A batch engine that positions devices on several threads and gives the same reports, in the
/// same order, for any number of threads.
///
/// Devices are independent except for what the site shares: the beacon-consistency watch (its
/// decisions to set a beacon apart), online learning (models taken into use every
/// `updateInterval`), and idle release (which devices are finished when, by the clock of all
/// samples). So the input is cut into **slices**: a slice ends after ``sliceRows`` rows; before
/// a row stamped half an epoch (``PositioningEngine/Configuration/epoch``) or more from the
/// slice's first, unless the slice interleaves devices (``interleavedRows`` changes of device from one
/// row to the next: many devices at once, where slices must be long for the threads to pay);
/// and after each row where idle release looks for idle devices or learned models are taken
/// into use. Within a slice every device's samples go to the worker of its shard (by a hash of
/// its name, `shard(hash:of:)`) and the workers run at once, each with the shared state as it
/// stood when the slice began; what their epochs do to that state (the watch's scores, the
/// learner's samples) is recorded, and at the end of the slice applied in input order, which is
/// the order one thread would apply it in. Reports are merged back into input order the same
/// way. The slicing depends on the input alone, so the reports are the same for every `jobs`.
///
/// Against ``PositioningEngine`` fed the same samples the one difference is when the watch's
/// decisions take effect: at the end of the slice instead of at the next epoch closed. Where
/// devices come one after another (a file grouped by device, or one phone), a device's next
/// epoch closes about an epoch later, in a later slice, so a decision reaches it as in one
/// engine (except a second epoch closed by the same sample after a gap, or readings more than
/// half an epoch apart); in an interleaved
/// slice, the epochs closed after the decision in the same slice do not see it. The reports are
/// identical while no beacon is set apart or taken back (Docs/Guide/Scale.md has the measurements).
///
/// ```swift
/// let engine = try ShardedPositioningEngine(plan: plan, jobs: 4)
/// for sample in samples { engine.push(sample); engine.drain(write) }
/// engine.finishReleasing(write)
/// ```
/// One owner pushes and drains (the class is not `Sendable`). The owner's thread is one of the
/// `jobs` threads: with `jobs` ≥ 2 the devices are shared out among `shardsPerThread` × `jobs`
/// shards, each with its own engine, and `jobs` − 1 threads of Dispatch's global queue take a
/// slice's shards one by one while the owner reads the next slice; then the owner takes what
/// is left. So `jobs` threads are busy on `jobs` cores, none waiting for a core, and the shares
/// balance by themselves whatever reading costs against positioning.
public final class ShardedPositioningEngine {
    /// The most rows in one slice.
    public static let sliceRows = 4096
    /// Rows changing device (from the row before) that make a slice interleaved: it then runs
    /// past an epoch of input time, up to ``sliceRows``.
    public static let interleavedRows = 64
    /// Devices finished per step at the end of the input (bounds the reports held at once).
    static let finishChunk = 4096
    /// Devices in the first step at the end of the input when the engine learns its detection
    /// curve; each step after has twice as many, up to ``finishChunk``. The curve is fitted
    /// between steps, so that devices whose every epoch closes at the end (single scans) still
    /// find a curve from the devices finished before them.
    static let firstLearningFinishChunk = 64
    /// Rows a slice needs before other threads are woken for it: fewer (one phone's half epoch,
    /// a few phones') are run by the caller at once, since waking a thread, handing it the slice
    /// and waiting for it costs more than it saves (measured in Docs/Evidence/Benchmarks.md).
    static let sharedRows = 256

    /// Threads, the caller's included (1: everything on the caller's thread).
    public let jobs: Int
    /// Shards per thread with `jobs` ≥ 2: enough that the thread that finishes first has more
    /// to take while another is busy, few enough that each is worth taking.
    static let shardsPerThread = 4
    /// The site-wide state: the beacons' models, the consistency watch and the learner; no devices.
    private var coordinator: PositioningEngine
    private let workers: [ShardWorker]
    /// The slice being read, per worker.
    private var pending: [ShardRows]
    /// The epoch length (``PositioningEngine/Configuration/epoch``), seconds, read per row.
    private let epoch: Double
    /// One empty ``ShardOutput`` per worker, exchanged with the workers' outputs while
    /// ``collect()`` merges them.
    private var merging: [ShardOutput]
    private var pendingRows = 0
    /// The time of the slice's first row with a usable time.
    private var sliceStart: Double?
    /// Rows of the slice whose device differs from the row before's, and that device.
    private var interleavings = 0
    private var previousDevice: String?
    private var nextTag = 0
    /// The latest sample time pushed, and when the next idle-release look and model update are due.
    private var clock = -Double.infinity
    /// Whether anything follows the clock (idle release or online learning).
    private let followsClock: Bool
    private var nextIdleCheck = -Double.infinity
    private var nextModelUpdate = -Double.infinity
    /// What the slice being read ends with: a look for idle devices, a model update (at this clock).
    private var pendingIdleCheck: Double?
    private var pendingModelUpdate: Double?
    /// The slice running on the workers and its end-of-slice steps.
    private var inFlight: (queue: ShardQueue, idleCheck: Double?, modelUpdate: Double?)?
    /// Slices handed to other threads so far (the rest ran on the caller's; for tests).
    private(set) var sharedSlices = 0
    /// Whether the coordinator's site-wide state changed since the workers last adopted it.
    private var sharedStateChanged = false
    /// Reports merged into input order, waiting for ``drain(_:)``.
    private var ready: [PositionReport] = []
    /// With an ``encoder``: the bytes of the reports merged into input order, and their number,
    /// waiting for ``drainEncoded(_:)``.
    private var readyBytes: [UInt8] = []
    private var readyCount = 0

    /// Turns one report into output bytes, appended to the buffer given (a line of a file, for
    /// example). It runs on the worker threads, each report on the thread that made it.
    public typealias ReportEncoder = @Sendable (PositionReport, inout [UInt8]) -> Void
    /// The encoder given at ``init(plan:calibration:configuration:jobs:encoder:)``, if any.
    public let encoder: ReportEncoder?

    /// An engine for `plan` on `jobs` threads (see ``PositioningEngine/init(plan:calibration:configuration:)``).
    ///
    /// With an `encoder`, the workers encode each report as they make it and keep only its
    /// bytes: ``drainEncoded(_:)`` and ``finishReleasingEncoded(_:)`` hand them out in the order
    /// ``drain(_:)`` and ``finishReleasing(_:)`` would hand out the reports (which then give
    /// none), so that writing a large output costs the reading thread a copy of bytes only.
    /// ``finish()`` and ``smooth(_:)`` need the reports: use them without an encoder.
    /// - Throws: ``PositioningError`` for a bad setting, a plan without beacons, or `jobs` < 1.
    public init(
        plan: FloorPlan, calibration: [BeaconIdentity: PathLossModel] = [:],
        configuration: PositioningEngine.Configuration = .init(), jobs: Int, encoder: ReportEncoder? = nil
    ) throws(PositioningError) {
        guard jobs >= 1 else { throw .invalidConfiguration("jobs must be 1 or more, got \(jobs)") }
        self.jobs = jobs
        self.encoder = encoder
        followsClock =
            (configuration.idleRelease != nil && !configuration.recordsHistory) || configuration.learning != nil
        coordinator = try PositioningEngine(plan: plan, calibration: calibration, configuration: configuration)
        // One engine per thread is made anew from its own copy of the plan (a JSON round trip,
        // exact), so that threads mostly read buffers of their own: reading a shared one still
        // counts references, and the counts would bounce between the cores. Shard k starts as a
        // copy of engine k mod `jobs` (a value copy: the plan's geometry stays shared, so memory
        // and start-up grow with the threads, not the shards; what a shard changes is its own).
        var templates: [PositioningEngine] = []
        var workers: [ShardWorker] = []
        for k in 0..<(jobs > 1 ? jobs * Self.shardsPerThread : 1) {
            if k < jobs {
                let own = jobs > 1 ? (try? FloorPlan(jsonData: plan.jsonData())) ?? plan : plan
                templates.append(
                    try PositioningEngine(plan: own, calibration: calibration, configuration: configuration))
            }
            workers.append(ShardWorker(engine: templates[k % jobs], encoder: encoder))
        }
        self.workers = workers
        pending = Array(repeating: ShardRows(), count: workers.count)
        merging = Array(repeating: ShardOutput(), count: workers.count)
        epoch = configuration.epoch
    }

    deinit {
        // The jobs of a slice still running (an engine dropped mid-input) are let end before the
        // workers go; shards not taken yet are not run.
        inFlight?.queue.waitForRunning()
    }

    /// The settings in force.
    public var configuration: PositioningEngine.Configuration { coordinator.configuration }

    /// What has been counted so far over every worker (see ``PositioningEngine/statistics``).
    /// Up to date for the slices processed (the slice being read is not counted yet).
    public var statistics: PositioningEngine.Statistics {
        var total = coordinator.statistics
        for worker in workers { total.add(worker.engine.statistics) }
        return total
    }

    /// Beacons set apart now (see ``PositioningEngine/inconsistentBeacons``).
    public var inconsistentBeacons: [BeaconIdentity] { coordinator.inconsistentBeacons }

    /// The detection curve learned so far (see ``PositioningEngine/learnedDetection``).
    public var learnedDetection: LearnedDetection? { coordinator.learnedDetection }

    /// The online learner's estimates (see ``PositioningEngine/learnedModels``).
    public var learnedModels: [LearnedPathLoss]? { coordinator.learnedModels }

    /// Feeds one sample (the order ``PositioningEngine/push(_:)`` needs). It is processed with
    /// its slice; the reports come out of ``drain(_:)`` once the slice is done.
    public func push(_ sample: RSSISample) {
        push(sample, deviceHash: nil)
    }

    /// ``push(_:)`` with the ``DeviceNameHash`` of the sample's device when the caller has it
    /// (see ``PositioningEngine/push(_:deviceHash:)``); nil: hashed here when needed.
    package func push(_ sample: RSSISample, deviceHash: UInt64?) {
        if RSSISample.isUsableTimestamp(sample.timestamp) {
            // A row half an epoch or more from the slice's first starts the next slice, so that
            // an epoch it closes sees what the watch decided after the device's epoch before
            // (closed about an epoch earlier, give or take the spacing of its readings).
            if let start = sliceStart, abs(sample.timestamp - start) >= epoch / 2,
                interleavings < Self.interleavedRows
            {
                startSlice()
            }
            if sliceStart == nil { sliceStart = sample.timestamp }
        }
        if pendingRows > 0, sample.device != previousDevice { interleavings += 1 }
        previousDevice = sample.device
        var hash = deviceHash
        var worker = 0
        if workers.count > 1 {
            let known = hash ?? DeviceNameHash.of(sample.device)
            hash = known
            worker = shard(hash: known)
        }
        pending[worker].append(sample, tag: nextTag, hash: hash)
        nextTag += 1
        pendingRows += 1
        // The clock only times idle release and model updates: not followed without them.
        if followsClock, sample.timestamp > clock, coordinator.movesClock(sample) {
            clock = sample.timestamp
            let configuration = coordinator.configuration
            if clock >= nextIdleCheck {
                if let idle = configuration.idleRelease, !configuration.recordsHistory {
                    nextIdleCheck = clock + idle / 4
                    pendingIdleCheck = clock
                } else {
                    nextIdleCheck = .infinity
                }
            }
            if let learning = configuration.learning, clock >= nextModelUpdate {
                nextModelUpdate = clock + learning.updateInterval
                pendingModelUpdate = clock
            }
        }
        // Idle release and model updates act after their row, as in one engine.
        if pendingRows >= Self.sliceRows || pendingIdleCheck != nil || pendingModelUpdate != nil { startSlice() }
    }

    /// Hands each report of the slices done so far to `body`, in input order.
    public func drain(_ body: (PositionReport) throws -> Void) rethrows {
        defer { ready.removeAll(keepingCapacity: true) }
        for report in ready { try body(report) }
    }

    /// With an ``encoder``: hands the bytes of the reports of the slices done so far to `body`
    /// (nothing when there are none), in input order, with the number of reports they hold.
    public func drainEncoded(_ body: ([UInt8], Int) throws -> Void) rethrows {
        guard readyCount > 0 else { return }
        defer {
            readyBytes.removeAll(keepingCapacity: true)
            readyCount = 0
        }
        try body(readyBytes, readyCount)
    }

    /// Ends the input like ``PositioningEngine/finishReleasing(_:)``: every remaining report
    /// goes to `body` (after those not yet drained), device by device in name order, and each
    /// device is freed once its reports are out.
    public func finishReleasing(_ body: (PositionReport) throws -> Void) rethrows {
        try finish(releasing: true) { try drain(body) }
    }

    /// ``finishReleasing(_:)`` with an ``encoder``: the remaining reports' bytes go to `body` as
    /// ``drainEncoded(_:)`` gives them.
    public func finishReleasingEncoded(_ body: ([UInt8], Int) throws -> Void) rethrows {
        try finish(releasing: true) { try drainEncoded(body) }
    }

    /// Ends the input like ``PositioningEngine/finish()``, keeping the devices (and, with
    /// ``PositioningEngine/Configuration/recordsHistory``, their histories for ``smooth(_:)``).
    public func finish() -> [PositionReport] {
        var reports: [PositionReport] = []
        finish(releasing: false) { drain { reports.append($0) } }
        return reports
    }

    /// The Rauch–Tung–Striebel smoothed reports (see ``PositioningEngine/smooth(_:)``), each
    /// device's by the worker that tracked it, in the order given.
    public func smooth(_ reports: [PositionReport]) throws(PositioningError) -> [PositionReport] {
        var positions = Array(repeating: [Int](), count: workers.count)
        var parts = Array(repeating: [PositionReport](), count: workers.count)
        for (i, report) in reports.enumerated() {
            let k = shard(of: report.device)
            positions[k].append(i)
            parts[k].append(report)
        }
        var smoothed = reports
        for k in workers.indices {
            for (i, report) in zip(positions[k], try workers[k].engine.smooth(parts[k])) { smoothed[i] = report }
        }
        return smoothed
    }

    /// Positions a whole batch on `jobs` threads, as ``PositioningEngine/locate(_:plan:calibration:configuration:smooth:)``
    /// does on one (any order; each device's samples are sorted by time; the reports grouped by
    /// device and in time order within each), with the same reports for every `jobs`.
    public static func locate(
        _ samples: [RSSISample], plan: FloorPlan,
        calibration: [BeaconIdentity: PathLossModel] = [:],
        configuration: PositioningEngine.Configuration = .init(),
        smooth: Bool = false, jobs: Int
    ) throws(PositioningError) -> [PositionReport] {
        var configuration = configuration
        configuration.recordsHistory = configuration.recordsHistory || smooth
        let engine = try ShardedPositioningEngine(
            plan: plan, calibration: calibration, configuration: configuration, jobs: jobs)
        var reports: [PositionReport] = []
        for sample in PositioningEngine.inBatchOrder(samples) {
            engine.push(sample)
            engine.drain { reports.append($0) }
        }
        reports += engine.finish()
        return smooth && configuration.tracking == .kalman ? try engine.smooth(reports) : reports
    }

    // MARK: Slices

    /// The worker of `device`'s shard, by its ``DeviceNameHash`` (fixed across runs and
    /// machines, unlike `Hasher`).
    private func shard(of device: String?) -> Int {
        workers.count > 1 ? shard(hash: DeviceNameHash.of(device)) : 0
    }

    /// The worker of the device whose ``DeviceNameHash`` is `hash`.
    private func shard(hash: UInt64) -> Int { Self.shard(hash: hash, of: workers.count) }

    /// The shard, of `count`, of the device whose ``DeviceNameHash`` is `hash`: ⌊count · m / 2³²⌋,
    /// with m the top 32 bits of hash · ⌊2⁶⁴/φ⌋ (Fibonacci hashing, Knuth, TAOCP vol. 3 §6.4),
    /// which depend on every bit of the hash. (The hash modulo `count` would leave each shard's
    /// device table, indexed by the low bits, with a fraction 1/`count` of its home slots.)
    /// Which shard a device goes to changes no report, only the balance.
    static func shard(hash: UInt64, of count: Int) -> Int {
        let mixed = (hash &* 0x9E37_79B9_7F4A_7C15) >> 32
        return Int(truncatingIfNeeded: (mixed &* UInt64(count)) >> 32)
    }

    /// Completes the slice in flight, then hands the slice read since to the workers (with
    /// `jobs` ≥ 2 other threads start on it while the caller reads on, and the caller takes the
    /// shards left in ``complete()``; with 1 it runs now).
    private func startSlice() {
        complete()
        for k in workers.indices {
            swap(&workers[k].input, &pending[k])
        }
        // A slice of fewer than `sharedRows` rows, or of one shard's, runs on this thread now.
        let shared = jobs > 1 && pendingRows >= Self.sharedRows && workers.lazy.filter(\.hasInput).count > 1
        pendingRows = 0
        sliceStart = nil
        interleavings = 0
        let steps = (idleCheck: pendingIdleCheck, modelUpdate: pendingModelUpdate)
        pendingIdleCheck = nil
        pendingModelUpdate = nil
        if shared { sharedSlices += 1 }
        start(idleCheck: steps.idleCheck, modelUpdate: steps.modelUpdate, threads: shared ? jobs : 1)
        if !shared { complete() }
    }

    /// Starts `threads` − 1 threads of the global queue (by default `jobs` − 1) on the workers'
    /// jobs, each taking the next shard not yet taken until none is left; the caller joins in
    /// ``complete()``, which then runs the end-of-slice steps given.
    private func start(idleCheck: Double? = nil, modelUpdate: Double? = nil, threads: Int? = nil) {
        let queue = ShardQueue(workers: workers)
        for _ in 1..<(threads ?? jobs) {
            DispatchQueue.global(qos: .userInitiated).async { queue.work() }
        }
        inFlight = (queue, idleCheck, modelUpdate)
    }

    /// Takes the shards of the slice in flight that no other thread has taken and waits for the
    /// rest; merges the reports into input order; applies the slice's effects to the site-wide
    /// state, then its end-of-slice steps; hands the state to the workers.
    private func complete() {
        guard let slice = inFlight else { return }
        inFlight = nil
        slice.queue.finish()
        collect()
        if let time = slice.idleCheck { releaseIdle(at: time) }
        let updates = coordinator.statistics.learnedModelUpdates
        if let time = slice.modelUpdate { coordinator.context.updateModels(at: time) }
        let adopted = coordinator.statistics.learnedModelUpdates != updates
        fitDetectionIfDue()
        // The workers take the coordinator's state when it changed (read from it once). A
        // worker's engine records what its epochs would do to that state instead of doing it
        // (EpochContext.recording), so its copy changes only here.
        if sharedStateChanged || adopted {
            sharedStateChanged = false
            let consistency = coordinator.context.consistency
            let beacons = adopted ? coordinator.context.beacons : nil
            for worker in workers { worker.engine.context.adoptShared(consistency: consistency, beacons: beacons) }
        }
    }

    /// Fits the detection curve when the determined fixes recorded by every worker make a fit
    /// due, from their merged sample, and hands it to every worker: at the end of a slice, so
    /// that the fits (and the fallbacks that use them) are the same for any number of threads.
    private func fitDetectionIfDue() {
        var fixes = coordinator.statistics.detections.fixes
        var fallbacks = coordinator.statistics.fallbackReports
        for worker in workers {
            fixes += worker.engine.statistics.detections.fixes
            fallbacks += worker.engine.statistics.fallbackReports
        }
        guard coordinator.context.detectionFitIsDue(fixes: fixes, fallbacks: fallbacks) else { return }
        let total = statistics
        coordinator.context.fitDetection(from: total.detections, varianceFactor: total.varianceFactor)
        let learned = coordinator.context.learnedDetection
        for worker in workers { worker.engine.context.adoptDetection(learned) }
    }

    /// Merges the workers' reports (or their bytes) by tag into ``ready`` (``readyBytes``) and
    /// applies their effects in tag order.
    private func collect() {
        // The outputs are moved into a local list (and back, emptied, keeping their storage), so
        // that the merge reads a local array instead of each worker's property once per report.
        var outputs: [ShardOutput] = []
        swap(&outputs, &merging)
        // Only the workers that ran have reports or effects (the others' outputs stay empty).
        for k in workers.indices where workers[k].ran { swap(&outputs[k], &workers[k].output) }
        var next = Array(repeating: 0, count: workers.count)
        while let k = firstInMerge(
            of: outputs.count, key: { next[$0] < outputs[$0].reportTags.count ? outputs[$0].reportTags[next[$0]] : nil }
        ) {
            if encoder == nil {
                ready.append(outputs[k].reports[next[k]])
            } else {
                let start = next[k] == 0 ? 0 : outputs[k].encodedEnds[next[k] - 1]
                readyBytes.append(contentsOf: outputs[k].encoded[start..<outputs[k].encodedEnds[next[k]]])
                readyCount += 1
            }
            next[k] += 1
        }
        var effects: [CrossDeviceEffects] = []
        for k in workers.indices where workers[k].ran {
            outputs[k].removeAll()
            swap(&outputs[k], &workers[k].output)
            effects.append(workers[k].takeEffects())
            workers[k].ran = false
        }
        swap(&outputs, &merging)
        if effects.contains(where: { !$0.isEmpty }) {
            CrossDeviceEffects.apply(effects, to: &coordinator.context)
            sharedStateChanged = true
        }
    }

    /// Idle release at input time `time`, as one engine does it: the devices of every worker not
    /// heard for the idle-release time, the longest silent first, then by name.
    private func releaseIdle(at time: Double) {
        guard let idle = coordinator.configuration.idleRelease else { return }
        var candidates: [(heard: Double, name: String, worker: Int, slot: Int)] = []
        for k in workers.indices {
            for slot in workers[k].engine.idleDevices(before: time - idle) {
                let key = workers[k].engine.devices.heardAndDevice(slot)
                candidates.append((key.heard, key.device ?? "", k, slot))
            }
        }
        guard !candidates.isEmpty else { return }
        candidates.sort { DeviceTable.idleOrder(($0.heard, $0.name), ($1.heard, $1.name)) }
        var perWorker = Array(repeating: [(tag: Int, slot: Int)](), count: workers.count)
        for candidate in candidates {
            perWorker[candidate.worker].append((nextTag, candidate.slot))
            nextTag += 1
        }
        for k in workers.indices where !perWorker[k].isEmpty { workers[k].release(perWorker[k]) }
        collect()
    }

    /// The end of the input: the slice being read and the one in flight, then every device in
    /// name order, ``finishChunk`` at a time, each chunk's devices finished by their workers at
    /// once while the reports of the chunk before go to `body` in that order.
    private func finish(releasing: Bool, _ emit: () throws -> Void) rethrows {
        if pendingRows > 0 || pendingIdleCheck != nil || pendingModelUpdate != nil { startSlice() }
        complete()
        // Each worker lists its devices in name order while the last reports are written.
        for worker in workers { worker.listsHeld = true }
        start()
        if jobs == 1 { complete() }
        try emit()
        complete()
        let held = workers.map { worker in
            defer { worker.held = [] }
            return worker.held
        }
        var next = Array(repeating: 0, count: workers.count)
        var chunk = Array(repeating: [(tag: Int, device: DeviceTable.Held)](), count: workers.count)
        var chunkSize = coordinator.context.site.learnsDetection ? Self.firstLearningFinishChunk : Self.finishChunk
        while true {
            var steps = 0
            while steps < chunkSize,
                let k = firstInMerge(
                    of: workers.count, key: { next[$0] < held[$0].count ? held[$0][next[$0]].name : nil })
            {
                chunk[k].append((nextTag, held[k][next[k]].device))
                next[k] += 1
                nextTag += 1
                steps += 1
            }
            guard steps > 0 else { break }
            chunkSize = min(2 * chunkSize, Self.finishChunk)
            // The chunk before is done (its reports merged, its effects applied) before this
            // one starts; its reports are written while this one runs.
            complete()
            for k in workers.indices {
                swap(&workers[k].finishing, &chunk[k])
                workers[k].finishingReleases = releasing
            }
            start()
            if jobs == 1 { complete() }
            try emit()
        }
        complete()
        if releasing { for worker in workers { worker.engine.forgetAsleep() } }
        try emit()
    }
}
