import Foundation

/// One device's way through the pipeline: its open epoch's samples, its floor, its tracker.
///
/// Epochs follow the device's ``EpochGrid``. Closing an epoch turns its samples into one report
/// stamped at the epoch's end (Kalman) or middle (raw fix), in named stages: aggregate (per-beacon
/// means) → choose the floor → solve the robust maximum-likelihood fix (its rejected beacons are
/// left out below) → the track's lifecycle (start, re-floor, fuse every remaining sample at its
/// own time in one iterated update, verify against the fix — a track that sits at a wrong place
/// for several epochs is restarted at the fix —, restart after a refusal) → report. Epochs
/// without samples give no report.
struct DeviceTrack: Sendable {
    struct Pending: Sendable {
        var time: Double
        var slot: Int
        var rssi: Double
        /// The phone's activity hint that came with the sample, if any.
        var activity: ActivityHint? = nil
    }

    /// The device (a new track for another device is a copy of a new one with this changed).
    var device: String?
    private var grid: EpochGrid
    private var pending: [Pending] = []
    /// The samples of the epoch being closed (reused).
    private var epochSamples: [Pending] = []
    private var tracker: TrackerBank?
    /// The recorded histories of earlier tracks of this device, with their members' evidence.
    private var retiredHistories: [(histories: [[AugmentedStep]], evidence: [Double])] = []
    /// The device offset of the last track (dB, dB²), handed to the next one after a restart.
    private var lastOffset: (value: Double, variance: Double)?
    private var floorEstimator: FloorEstimator
    private var level: Int?
    // Reused per epoch so that steady state allocates little.
    private var sums: [Double]
    private var counts: [Int]
    private var touched: [Int] = []
    private var observations: [BeaconObservation] = []
    /// The table slot of each of ``observations`` (reused).
    private var observedSlots: [Int] = []
    private var measurements: [RSSIMeasurement] = []
    private var fix = Fix()
    /// How well each beacon's readings fit this device's track: its samples' variance is
    /// inflated by ``BeaconConsistency/inflation`` (robust weighting of beacons whose residuals
    /// stay large). Per device, so that devices stay independent of each other.
    private var fit: BeaconConsistency
    /// How far each beacon's readings sit from its model for this device: the consider term of
    /// the reported radius (``ModelMisfit``).
    private var misfit: ModelMisfit
    /// Each beacon's residual of the epoch being reported (reused; by slot).
    private var residuals: [Double]
    /// The loss of the walls between each beacon heard this epoch and the device, dB (by slot;
    /// empty until the plan's walls first call for it). Taken from each beacon's P₀ in the fix,
    /// the tracker's samples and the beacons' scores (see ``setWallLosses(at:walls:level:table:)``).
    private var wallLoss: [Double] = []
    /// The slots whose residuals count in ``misfit`` this epoch (reused, so that an epoch
    /// allocates nothing).
    private var misfitSlots: [Int] = []
    /// The consider covariance and the causal estimate of each tracked report still to be
    /// refined: by the lag (until the report leaves it) or by the smoother (every one, when
    /// history is recorded); time order.
    private var considered: [CausalEpoch] = []
    /// How much of the lag's shrinkage of the radius its corrections earn (``RefinementGain``).
    private var lagGain = RefinementGain()
    private var zones = ZonePresence()
    /// Reports waiting out the lag (``PositioningEngine/Configuration/lag``), oldest first; the
    /// tracked ones are refined after every epoch of their track.
    private var held: [PositionReport] = []
    /// One epoch's causal reports on their way into `held` (reused).
    private var fresh: [PositionReport] = []
    /// The zone rule applied to reports as they leave the lag (`zones` decides at epoch time).
    private var lagZones = ZonePresence()
    /// Keeps the reports that leave this track (causal, or from the lag) off the walls.
    private var passage = WallPassage()
    /// With a lag and online learning: the samples of the held tracked reports, each with its
    /// report's time, taught to the learner with the refined position as the report leaves.
    private var heldLessons: [(report: Double, slot: Int, rssi: Double)] = []

    init(device: String?, levels: [Int], epoch: Double, floor: FloorEstimator.Configuration) throws(PositioningError) {
        let beaconCount = levels.count
        self.device = device
        grid = EpochGrid(length: epoch)
        do {
            floorEstimator = try FloorEstimator(configuration: floor)
        } catch {
            throw .invalidConfiguration(String(describing: error))
        }
        fit = BeaconConsistency(levels: levels)
        misfit = ModelMisfit(count: beaconCount)
        residuals = Array(repeating: 0, count: beaconCount)
        sums = Array(repeating: 0, count: beaconCount)
        counts = Array(repeating: 0, count: beaconCount)
    }

    /// Buffers a sample; closes every epoch that ends before `time − reorderDelay` first.
    mutating func add(_ sample: Pending, context: inout EpochContext, into reports: inout [PositionReport]) -> Bool {
        guard var start = grid.admit(sample.time) else { return false }
        // Finite: every pass moves `start` forward by at least one epoch (the engine only admits
        // |time| ≤ RSSISample.timestampLimit, where start + epoch > start), and the grid ends
        // the loop should rounding ever stop it from advancing.
        while sample.time >= start + grid.length + context.configuration.reorderDelay {
            closeEpoch(end: start + grid.length, context: &context, into: &reports)
            let earliest = pending.lazy.map(\.time).min() ?? sample.time
            guard let next = grid.afterSample(from: start, earliest: earliest) else { break }
            start = next
        }
        pending.append(sample)
        return true
    }

    /// Closes every open epoch (end of input) and releases every report still held by the lag.
    mutating func flush(context: inout EpochContext, into reports: inout [PositionReport]) {
        while let start = grid.start, !pending.isEmpty {
            closeEpoch(end: start + grid.length, context: &context, into: &reports)
            let earliest = pending.lazy.map(\.time).min()
            // Finite as in add(_:): the start strictly increases, or the rest is dropped.
            guard grid.afterFlush(from: start, earliest: earliest) != nil else {
                if earliest != nil { pending.removeAll() }
                break
            }
        }
        release(upTo: .infinity, context: &context, into: &reports)
    }

    // MARK: Idle devices

    /// Whether no epoch has closed yet: the track is then its grid and its pending samples only,
    /// and can sleep as a ``DormantDevice``.
    var isPristine: Bool { !grid.hasClosed && tracker == nil }

    /// This track as a dormant device; nil unless it is pristine and has samples.
    func dormant() -> DormantDevice? {
        guard isPristine, let first = pending.first else { return nil }
        return DormantDevice(first: first, rest: Array(pending.dropFirst()))
    }

    /// Takes a dormant device's samples into this new track of the same device, as pushing them
    /// again would (a pristine track closed no epoch on any of them, so none closes now).
    mutating func restore(_ dormant: DormantDevice) {
        dormant.forEachSample { sample in
            _ = grid.admit(sample.time)
            pending.append(sample)
        }
    }

    /// Frees what lives only while an epoch closes (the epoch's samples, observations and
    /// measurements, the lag's buffer, the tracker's scratch space) while the device is idle;
    /// each is filled again before it is read, so the reports do not change.
    mutating func releaseScratch() {
        epochSamples = []
        touched = []
        observations = []
        measurements = []
        fresh = []
        tracker?.releaseScratch()
    }

    /// Makes this track, once flushed (no pending sample, nothing held by the lag), a new track
    /// for `device`: every property is set to `template`'s (a new track), with the device
    /// changed, so the result reports exactly what `template` would. Arrays and the watch are
    /// overwritten in their own storage (``Swift/Array/overwrite(with:)``) rather than replaced
    /// by the template's, so that finishing many devices one after another in one track neither
    /// frees and grows buffers nor counts references to the template's for each device.
    mutating func recycle(as device: String?, like template: DeviceTrack) {
        self.device = device
        grid = template.grid
        pending.overwrite(with: template.pending)
        epochSamples.overwrite(with: template.epochSamples)
        tracker = template.tracker
        retiredHistories.overwrite(with: template.retiredHistories)
        lastOffset = template.lastOffset
        floorEstimator = template.floorEstimator
        level = template.level
        sums.overwrite(with: template.sums)
        counts.overwrite(with: template.counts)
        touched.overwrite(with: template.touched)
        observations.overwrite(with: template.observations)
        observedSlots.overwrite(with: template.observedSlots)
        wallLoss.overwrite(with: template.wallLoss)
        measurements.overwrite(with: template.measurements)
        fix = template.fix
        fit.overwrite(with: template.fit)
        misfit.overwrite(with: template.misfit)
        residuals.overwrite(with: template.residuals)
        misfitSlots.overwrite(with: template.misfitSlots)
        considered.overwrite(with: template.considered)
        lagGain = template.lagGain
        if zones != template.zones { zones = template.zones }
        held.overwrite(with: template.held)
        fresh.overwrite(with: template.fresh)
        if lagZones != template.lagZones { lagZones = template.lagZones }
        passage = template.passage
        heldLessons.overwrite(with: template.heldLessons)
    }

    /// The smoothed estimates of every track of this device (RTS over each recorded history),
    /// oldest first; empty when nothing was recorded.
    func smoothedEstimates() -> [TrackEstimate] {
        var all = retiredHistories
        if let tracker { all.append((tracker.histories, tracker.totalLogEvidence)) }
        var estimates = all.flatMap { entry -> [TrackEstimate] in
            (try? TrackerBank.smooth(entry.histories, totalLogEvidence: entry.evidence)) ?? []
        }
        // Each smoothed estimate's radius keeps what its corrections earn of the smoother's
        // shrinkage (``RefinementGain``, in time order over the device's tracks) and its epoch's
        // consider term: smoothing averages noise, not the models' misfit.
        var gain = RefinementGain()
        var k = 0
        for i in estimates.indices {
            while k < considered.count, considered[k].time < estimates[i].time { k += 1 }
            guard k < considered.count, considered[k].time == estimates[i].time else { continue }
            let epoch = considered[k]
            var p = gain.covariance(
                causal: epoch.covariance, causalPosition: epoch.position,
                refined: estimates[i].horizontalCovariance, refinedPosition: estimates[i].position)
            p.add(epoch.consider)
            estimates[i].covarianceXX = p.xx
            estimates[i].covarianceXY = p.xy
            estimates[i].covarianceYY = p.yy
        }
        return estimates
    }

    /// The device offset the engine currently assumes, dB: the tracker's estimate, or the
    /// configured starting value before a track exists.
    func deviceOffset(context: EpochContext) -> Double {
        tracker?.deviceOffset ?? lastOffset?.value ?? context.deviceOffset.initial
    }

    // MARK: Closing an epoch

    /// Closes the epoch ending at `end`; true when it gave a report. With a lag the report is
    /// held (see ``PositioningEngine/Configuration/lag``): every held tracked report is refined
    /// by the track's fixed-lag smoother, and those at or before `end − lag` are released.
    @discardableResult
    private mutating func closeEpoch(
        end: Double, context: inout EpochContext, into reports: inout [PositionReport]
    ) -> Bool {
        let lag = context.configuration.lag
        guard lag > 0 else {
            let before = reports.count
            closeCausalEpoch(end: end, context: &context, into: &reports)
            for i in before..<reports.count { passWalls(&reports[i], context: context) }
            return reports.count > before
        }
        var buffer = fresh
        fresh = []
        buffer.removeAll(keepingCapacity: true)
        closeCausalEpoch(end: end, context: &context, into: &buffer)
        let produced = !buffer.isEmpty
        held.append(contentsOf: buffer)
        fresh = buffer
        refineHeld(context: &context)
        release(upTo: end - lag, context: &context, into: &reports)
        return produced
    }

    /// The causal part of closing an epoch: its report (if any) as soon as the epoch closes.
    private mutating func closeCausalEpoch(
        end: Double, context: inout EpochContext, into reports: inout [PositionReport]
    ) {
        grid.markClosed()
        // Take this epoch's samples in a canonical order (time, then beacon, then RSSI), so that
        // the result does not depend on the order of samples with equal timestamps; later ones
        // stay pending.
        Self.sortInPlace(&pending)
        let split = pending.firstIndex { $0.time >= end } ?? pending.count
        guard split > 0 else { return }
        // The epoch's samples move to their own buffer, so that `pending` stays uniquely
        // referenced and neither step allocates.
        epochSamples.removeAll(keepingCapacity: true)
        epochSamples.append(contentsOf: pending[..<split])
        pending.removeFirst(split)
        let samples = epochSamples[...]
        aggregate(samples)
        defer { clearAggregate() }

        let table = context.beacons
        let level = chooseLevel(at: end, samples: samples, table: table)
        guard let floor = table.floors[level], let setup = context.geometry[level] else {
            context.statistics.epochsWithoutFix += 1
            return
        }
        // The fix sees the readings with the device offset taken out.
        let offset = deviceOffset(context: context)
        // The walls between the beacons and the track's last position (the multi-wall model,
        // held for the epoch); solveFix then also tries them counted from the floor's grid
        // (solveAmongRooms) and keeps the better fit.
        let walls = setup.walls
        if !walls.isEmpty {
            let track = tracker.flatMap { $0.level == level ? $0.estimate.position : nil }
            setWallLosses(at: track, walls: walls, level: level, table: table)
        }
        if !solveFix(level: level, offset: offset, end: end, walls: walls, context: &context) {
            // No fix from beacons of this floor: every one heard is set apart by the watch, or
            // the solver failed. A running track still reports, predicted to the epoch's end (it
            // takes no sample of a set-apart beacon anyway), so that learning models, which lets
            // the watch set beacons apart, never costs a position a plan-values run reports. (A
            // phone that hears no beacon of the floor at all, as in the floor rule's dwell, is
            // counted without a fix.) The fix is marked unsolved: it neither verifies the track
            // nor stands in for it below.
            guard context.configuration.tracking == .kalman, tracker != nil,
                touched.contains(where: { table[$0].beacon.level == level })
            else {
                context.statistics.epochsWithoutFix += 1
                return
            }
            fix.status = .fallback(.unsolved)
            fix.rejectedBeacons.removeAll(keepingCapacity: true)
        }
        if fix.status.isDetermined, fix.degreesOfFreedom > 0, fix.chiSquare.isFinite, fix.chiSquare >= 0 {
            context.statistics.addChiSquare(fix.chiSquare)
            context.statistics.fitDegreesOfFreedom += fix.degreesOfFreedom
        }
        let configuration = context.configuration
        if configuration.tracking == .none {
            // A snapshot fix stands for the middle of the window its samples came from.
            if !fix.status.isDetermined { context.statistics.fallbackReports += 1 }
            reports.append(
                report(
                    time: end - configuration.epoch + configuration.epoch / 2, fix: fix, floor: floor,
                    offset: offset, maximumVariance: setup.tracker.maximumPositionVariance, context: context))
            return
        }
        switch trackEpoch(samples, end: end, level: level, setup: setup, context: &context) {
        case .notStarted:
            // No track yet and no determined fix to start one: the fix as it is (a fallback).
            context.statistics.fallbackReports += 1
            reports.append(
                report(
                    time: end, fix: fix, floor: floor, offset: offset,
                    maximumVariance: setup.tracker.maximumPositionVariance, context: context))
        case .refused:
            // The track was retired: the fix stands in, when it is determined.
            if fix.status.isDetermined {
                reports.append(
                    report(
                        time: end, fix: fix, floor: floor, offset: offset,
                        maximumVariance: setup.tracker.maximumPositionVariance, context: context))
            } else {
                context.statistics.epochsRefused += 1
            }
        case .tracked(let current):
            reportTracked(
                current, samples: samples, end: end, level: level, floor: floor, context: &context,
                into: &reports)
        }
    }

    /// What the track's lifecycle stage leaves for the report.
    private enum TrackOutcome {
        /// No track and no determined fix to start one at.
        case notStarted
        /// The tracker refused its input and was retired.
        case refused
        /// The track to report from.
        case tracked(TrackerBank)
    }

    // MARK: Stages of an epoch

    /// Aggregate: each beacon's RSSI sum and count over the epoch (`touched` lists the beacons).
    private mutating func aggregate(_ samples: ArraySlice<Pending>) {
        for s in samples {
            if counts[s.slot] == 0 { touched.append(s.slot) }
            sums[s.slot] += s.rssi
            counts[s.slot] += 1
        }
    }

    /// Clears the aggregate for the next epoch (keeping its storage).
    private mutating func clearAggregate() {
        for slot in touched {
            sums[slot] = 0
            counts[slot] = 0
        }
        touched.removeAll(keepingCapacity: true)
    }

    /// Solve the fix: the epoch's per-beacon means on `level` (offset `offset` dB taken out,
    /// set-apart beacons left out unless they are all a device without a track heard) into
    /// `fix`; false when no fix at all could be made. A determined fix is recorded for the
    /// detection curve when the engine records detections (`end`, the epoch's end, keys it).
    private mutating func solveFix(
        level: Int, offset: Double, end: Double, walls: FloorWalls, context: inout EpochContext
    ) -> Bool {
        let table = context.beacons
        // A device without a track that hears only set-apart beacons is placed by them (doubted
        // readings rather than none: a plan-values run would report it); a running track
        // predicts instead (``closeCausalEpoch(end:context:into:)``).
        let onlySetApart =
            tracker == nil && !touched.contains { table[$0].beacon.level == level && !context.isSetApart($0) }
        observations.removeAll(keepingCapacity: true)
        observedSlots.removeAll(keepingCapacity: true)
        for slot in touched where table[slot].beacon.level == level && (onlySetApart || !context.isSetApart(slot)) {
            let entry = table[slot]
            observedSlots.append(slot)
            observations.append(
                BeaconObservation(
                    identity: entry.beacon.identity, position: entry.beacon.position, level: level,
                    model: walls.isEmpty ? entry.model : lessWalls(entry.model, slot: slot),
                    meanRSSI: sums[slot] / Double(counts[slot]) - offset, count: counts[slot]))
        }
        // A fallback fix is reported only by a device without a track, or with tracking off.
        let reported = tracker == nil || context.configuration.tracking == .none
        guard context.solve(observations, level: level, offset: offset, into: &fix, reported: reported) else {
            return false
        }
        if !walls.isEmpty && fix.status.isDetermined {
            guard
                solveAmongRooms(
                    walls: walls, level: level, offset: offset, onlySetApart: onlySetApart, reported: reported,
                    context: &context)
            else { return false }
        }
        if context.site.recordsDetections && fix.status.isDetermined {
            recordDetections(level: level, offset: offset, end: end, context: &context)
        }
        // The fix a track starts at is the detection posterior's mean once there is a curve
        // (recorded above at the maximum-likelihood position, which the curve was learned from).
        // Not with tracking off: refining every epoch of a walk made kolakowski-flat's survey
        // walk worse (calibrated, 1.80 -> 1.90 m; Docs/Evidence/TrilaterationStudies.md), and every epoch would pay it.
        if tracker != nil || !fix.status.isDetermined { return true }
        let site = context.site.configuration
        if site.tracking == .kalman && site.solver.fallback == .detectionPosterior {
            context.refineWithDetection(observations, level: level, offset: offset, into: &fix)
        }
        return true
    }

    /// Records which beacons of `level` the determined fix heard (``touched``), their ln d from
    /// the fix's position and the offset of its readings (the device's, `offset`, plus the
    /// fix's own), in ``PositioningEngine/Statistics/detections``, keyed by a hash of the device
    /// and the epoch (`end`). Beacons set apart count as neither.
    private func recordDetections(level: Int, offset: Double, end: Double, context: inout EpochContext) {
        // SplitMix64's finaliser over the device's hash and the epoch's end.
        var key = DeviceNameHash.of(device) ^ (end.bitPattern &* 0x9E37_79B9_7F4A_7C15)
        key = (key ^ (key >> 30)) &* 0xBF58_476D_1CE4_E5B9
        key = (key ^ (key >> 27)) &* 0x94D0_49BB_1331_11EB
        key ^= key >> 31
        // Built straight into the sample's storage (a scan that cannot enter it is only counted).
        let table = context.beacons
        let p = fix.position
        let counts = self.counts
        let offset = offset + fix.commonOffset
        // Read before the recording's write to `context` (see EpochContext.isSetApart).
        let excludes = context.site.configuration.excludesInconsistentBeacons
        let excluded = context.consistency.excluded
        context.statistics.detections.record(key: key, offset: offset, beacons: table.count) { slot in
            guard table[slot].beacon.level == level && !(excludes && excluded[slot]) else { return nil }
            let b = table[slot].beacon.position
            let squared = (b.x - p.x) * (b.x - p.x) + (b.y - p.y) * (b.y - p.y) + (b.z - p.z) * (b.z - p.z)
            return (0.5 * log(max(squared, 1e-4)), counts[slot] > 0)
        }
    }

    /// The track's lifecycle for one epoch ending at `end`: a new floor retires the track (it
    /// starts over at this epoch's fix there); a missing track starts at a determined fix; a
    /// running one moves to the epoch's floor, fuses the epoch's samples and is verified
    /// against the fix. A tracker that refuses its input is retired and counted as a restart.
    private mutating func trackEpoch(
        _ samples: ArraySlice<Pending>, end: Double, level: Int, setup: PlanConfiguration,
        context: inout EpochContext
    ) -> TrackOutcome {
        let configuration = context.configuration
        var measured = PositionMeasurement(fix, time: end)
        measured.level = level
        // A new floor: start over at this epoch's fix there, rather than carry the old floor's
        // position (kept inside the new outline, it would sit at its edge until evidence pulls it).
        if let existing = tracker, existing.level != level, fix.status.isDetermined {
            retire(existing, keepHistory: configuration.recordsHistory)
            tracker = nil
        }
        do {
            if tracker == nil {
                guard fix.status.isDetermined else { return .notStarted }
                // A new device starts from the offset its first fix estimated with the
                // position (a restarted one keeps its last track's).
                var start = lastOffset
                if start == nil, fix.commonOffsetVariance > 0 {
                    start = (context.deviceOffset.initial + fix.commonOffset, fix.commonOffsetVariance)
                }
                // It starts with the covariance the fix's readings support on their own.
                var first = PositionMeasurement(
                    startingTrackAt: fix, time: end, maximumVariance: setup.tracker.maximumPositionVariance)
                first.level = level
                var bank = try TrackerBank(
                    first: first, configuration: setup.tracker,
                    offset: context.deviceOffset,
                    shadowing: context.shadowingModels(onLevel: level),
                    floorElevation: setup.floorElevation, offsetEstimate: start)
                // Its own scratch space goes to the engine's (or is freed if that has some).
                bank.returnScratch(&context.trackerScratch)
                tracker = bank
            } else if var current = tracker {
                // Mutated away from `tracker` so that its storage stays uniquely referenced; it
                // works in the engine's shared scratch space for this epoch.
                tracker = nil
                current.borrowScratch(&context.trackerScratch)
                defer {
                    current.returnScratch(&context.trackerScratch)
                    tracker = current
                }
                if current.level != level {
                    try current.changeLevel(
                        to: level, elevation: setup.floorElevation, outline: setup.outline, walls: setup.walls,
                        at: end - configuration.epoch)
                }
                collectMeasurements(samples, level: level, after: current.time, context: context)
                // The phone's latest activity hint of the epoch weighs the motion modes over it.
                if let hint = samples.last(where: { $0.activity != nil })?.activity { current.observe(hint) }
                try current.update(measurements, at: end)
                if fix.status.isDetermined {
                    try current.verify(against: measured)
                }
            }
        } catch {
            // The tracker refused its input (it is left unchanged by a throw); restart it at the
            // next determined fix rather than stop reporting, keeping the device offset.
            if let tracker { retire(tracker, keepHistory: configuration.recordsHistory) }
            tracker = nil
            context.statistics.trackRestarts += 1
            return .refused
        }
        guard let tracker else { return .refused }
        return .tracked(tracker)
    }

    /// The tracker's measurements of the epoch: the samples on `level` not before the track's
    /// time, without set-apart beacons and the fix's rejected ones, each beacon's σ inflated by
    /// how badly it has fitted this device (``BeaconConsistency/inflation``).
    private mutating func collectMeasurements(
        _ samples: ArraySlice<Pending>, level: Int, after time: Double,
        context: EpochContext
    ) {
        let table = context.beacons
        measurements.removeAll(keepingCapacity: true)
        for s in samples where table[s.slot].beacon.level == level && s.time >= time && !context.isSetApart(s.slot) {
            let identity = table[s.slot].beacon.identity
            if fix.rejectedBeacons.contains(where: { $0.identity == identity }) { continue }
            var model = table[s.slot].model
            if !wallLoss.isEmpty { model = lessWalls(model, slot: s.slot) }
            model.sigma *= fit.inflation[s.slot].squareRoot()
            measurements.append(
                RSSIMeasurement(
                    time: s.time, beaconPosition: table[s.slot].beacon.position,
                    model: model, rssi: s.rssi, beaconKey: s.slot))
        }
    }

    /// Report: scores the beacons against the track, feeds the online learner and appends the
    /// tracked report at `end`.
    private mutating func reportTracked(
        _ current: TrackerBank, samples: ArraySlice<Pending>, end: Double, level: Int,
        floor: Floor, context: inout EpochContext,
        into reports: inout [PositionReport]
    ) {
        let estimate = current.estimate
        let consider = scoreBeacons(
            level: level, estimate: estimate, noiseScale: current.noiseScale,
            offset: current.deviceOffset, time: end, context: &context)
        let position = context.geometry.position(estimate.position, onLevel: level)
        if context.learner != nil {
            if context.configuration.lag > 0 {
                // Taught when the report leaves the lag, with its refined position.
                for s in samples { heldLessons.append((end, s.slot, s.rssi)) }
            } else {
                context.learn(
                    samples.lazy.map { (slot: $0.slot, rssi: $0.rssi) }, level: level, receiver: position,
                    covariance: estimate.horizontalCovariance, offset: current.deviceOffset)
            }
        }
        // The radius counts the models' misfit (``ModelMisfit``); with a lag or the smoother the
        // consider term is added when the refined report is final.
        let configuration = context.configuration
        var covariance = estimate.horizontalCovariance
        if configuration.considersModelMisfit {
            if configuration.lag > 0 || configuration.recordsHistory {
                considered.append(
                    CausalEpoch(
                        time: end, consider: consider, position: estimate.position,
                        covariance: estimate.horizontalCovariance))
            }
            if configuration.lag == 0 { covariance.add(consider) }
        }
        var report = PositionReport(
            timestamp: end, device: device, position: position, level: level,
            covariance: covariance, velocity: estimate.velocity, zone: nil, source: .tracked,
            beaconCount: observations.count, deviceOffset: current.deviceOffset)
        zones.decide(
            &report, position: estimate.position, floor: floor, adjacency: context.site.zoneAdjacency[level])
        if current.members[0].configuration.motionModes != nil { report.motion = current.modeProbabilities }
        reports.append(report)
    }

    /// Keeps what outlives a tracker that is replaced: its recorded history (for the smoother)
    /// and its device-offset estimate (the next tracker starts from it).
    private mutating func retire(_ tracker: TrackerBank, keepHistory: Bool) {
        if keepHistory { retiredHistories.append((tracker.histories, tracker.totalLogEvidence)) }
        if tracker.estimatesOffset { lastOffset = (tracker.deviceOffset, tracker.deviceOffsetVariance) }
    }

    /// Scores every beacon heard this epoch on `level` against the tracked position (see
    /// ``BeaconConsistency``), then lets the watch re-decide; records the residuals of the
    /// beacons the tracker used in ``misfit`` and returns the epoch's consider covariance, m²
    /// (zero unless ``PositioningEngine/Configuration/considersModelMisfit``).
    private mutating func scoreBeacons(
        level: Int, estimate: TrackEstimate, noiseScale: Double, offset: Double, time: Double,
        context: inout EpochContext
    ) -> PositionCovariance {
        let table = context.beacons
        let receiverZ = context.geometry.receiverElevation(onLevel: level)
        let considers = context.configuration.considersModelMisfit
        let withOffset = context.deviceOffset.isEstimated
        var geometry = ConsiderGeometry(withOffset: withOffset)
        var residualSum = 0.0, weightSum = 0.0
        for slot in touched where table[slot].beacon.level == level {
            let entry = table[slot]
            let dx = estimate.position.x - entry.beacon.position.x
            let dy = estimate.position.y - entry.beacon.position.y
            let dz = receiverZ - entry.beacon.position.z
            let d2 = max(dx * dx + dy * dy + dz * dz, 1e-4), distance = d2.squareRoot()
            let walls = wallLoss.isEmpty ? 0 : wallLoss[slot]
            let h = entry.model.expectedRSSI(atDistance: distance) + offset - walls
            // g = ∂h/∂(x, y) = −k (x − b)/d², k = 10 n / ln 10.
            let gx = -entry.model.logSlope * dx / d2, gy = -entry.model.logSlope * dy / d2
            let positionVariance =
                gx * gx * estimate.covarianceXX + 2 * gx * gy * estimate.covarianceXY
                + gy * gy * estimate.covarianceYY
            let m = Double(counts[slot])
            let variance = noiseScale * entry.model.sigma * entry.model.sigma / m + positionVariance
            let r = sums[slot] / m - h
            // The beacons the tracker fused, weighed as it weighed them, make the consider term.
            if considers && !context.isSetApart(slot) && !isRejected(entry.beacon.identity) {
                let w = m / (noiseScale * entry.model.sigma * entry.model.sigma * fit.inflation[slot])
                geometry.add(
                    gx: gx, gy: gy, weight: w,
                    modelVariance: entry.uncertainty?.variance(atDistance: distance) ?? 0)
                residuals[slot] = r
                misfitSlots.append(slot)
                residualSum += w * r
                weightSum += w
            }
            context.score(slot: slot, normalizedSquaredResidual: r * r / variance)
            fit.record(slot: slot, normalizedSquaredResidual: r * r / variance)
        }
        context.decideConsistency()
        fit.decide()
        guard considers else { return .zero }
        defer { misfitSlots.removeAll(keepingCapacity: true) }
        // Centred on the epoch's weighted mean when the offset is estimated: a shift common to
        // every beacon is the offset's.
        let common = withOffset && weightSum > 0 ? residualSum / weightSum : 0
        // At least what of its place's shadowing the phone still carries (``PlaceShadowing``).
        let place = PlaceShadowing(variance: context.configuration.placeShadowingVariance)
        let biasVariance = max(
            misfit.biasVariance(over: misfitSlots),
            place.biasVariance(speed: estimate.speed, over: context.configuration.shadowing.correlationTime))
        let consecutive = 1.5 * context.configuration.epoch
        for slot in misfitSlots {
            misfit.record(slot: slot, residual: residuals[slot] - common, time: time, consecutive: consecutive)
        }
        return geometry.covariance(biasVariance: biasVariance)
    }

    /// The fix among the rooms the walls make: the walls' losses are counted from a point, and
    /// the likelihood differs from room to room, so the fix is solved under two hypotheses, the
    /// walls counted from the track's last position (the fix just solved, if the device has a
    /// track on this floor) and counted from the best point of the floor's ``WallGrid``, and
    /// the one whose readings fit better (χ² plus 9, a 3-σ residual, per rejected beacon) is
    /// kept, with ``wallLoss`` counted from it for the tracker. Returns false when a solve fails.
    private mutating func solveAmongRooms(
        walls: FloorWalls, level: Int, offset: Double, onlySetApart: Bool, reported: Bool,
        context: inout EpochContext
    ) -> Bool {
        let table = context.beacons
        func misfit(_ fix: Fix) -> Double { fix.chiSquare + 9 * Double(fix.rejectedBeacons.count) }
        func count(from point: Point2D?, _ track: inout Self) {
            track.setWallLosses(at: point, walls: walls, level: level, table: table)
            for (k, slot) in track.observedSlots.enumerated() {
                track.observations[k].model = track.lessWalls(table[slot].model, slot: slot)
            }
        }
        func resolve(at point: Point2D?, _ track: inout Self, _ context: inout EpochContext) -> Bool {
            count(from: point, &track)
            return context.solve(track.observations, level: level, offset: offset, into: &track.fix, reported: reported)
        }
        let hasTrack = tracker?.level == level
        let fromTrack = hasTrack ? (position: fix.position, misfit: misfit(fix)) : nil
        let trackPoint = hasTrack ? tracker.map { $0.estimate.position } : nil
        // The grid's best point (the readings without walls, which the grid adds per point),
        // then the fix with the walls counted from there.
        count(from: nil, &self)
        guard let start = context.site.wallGrids[level]?.best(observations, slots: observedSlots) else {
            return hasTrack ? resolve(at: trackPoint, &self, &context) : true
        }
        guard resolve(at: start, &self, &context) else { return false }
        if let fromTrack, fix.status.isDetermined, fromTrack.misfit < misfit(fix) {
            guard resolve(at: trackPoint, &self, &context) else { return false }
        }
        if fix.status.isDetermined {
            setWallLosses(at: Point2D(x: fix.position.x, y: fix.position.y), walls: walls, level: level, table: table)
        }
        return true
    }

    /// Sets ``wallLoss`` for the beacons heard this epoch on `level`: the loss of the walls
    /// between each beacon and `point` (dB), or none without a point.
    private mutating func setWallLosses(at point: Point2D?, walls: FloorWalls, level: Int, table: BeaconTable) {
        if wallLoss.count != sums.count { wallLoss = Array(repeating: 0, count: sums.count) }
        for slot in touched where table[slot].beacon.level == level {
            let b = table[slot].beacon.position
            wallLoss[slot] = point.map { walls.loss(b.x, b.y, $0.x, $0.y) } ?? 0
        }
    }

    /// `model` with the walls' loss of this epoch taken from its P₀ (kept within the model's
    /// arithmetic range).
    private func lessWalls(_ model: PathLossModel, slot: Int) -> PathLossModel {
        var model = model
        model.measuredPower = max(
            model.measuredPower - wallLoss[slot], PathLossModel.measuredPowerRange.lowerBound + 1)
        return model
    }

    /// Whether this epoch's fix rejected the beacon (its samples were not fused).
    private func isRejected(_ identity: BeaconIdentity) -> Bool {
        fix.rejectedBeacons.contains { $0.identity == identity }
    }

    /// The floor of this epoch: the only one, or the floor rule's choice from each level's
    /// strongest readings.
    private mutating func chooseLevel(at time: Double, samples: ArraySlice<Pending>, table: BeaconTable) -> Int {
        guard table.isMultiFloor else { return table[samples.first!.slot].beacon.level }
        var byLevel: [Int: [Double]] = [:]
        for s in samples { byLevel[table[s.slot].beacon.level, default: []].append(s.rssi) }
        let evidence = byLevel.mapValues { FloorEstimator.score(rssi: $0) }
        let decision = try? floorEstimator.update(time: time, evidence: evidence)
        let chosen = decision?.level ?? level ?? evidence.max { $0.value < $1.value }!.key
        level = chosen
        return chosen
    }

    /// The report of an epoch's fix as it is (tracking off, a fallback before a track starts, or
    /// a fix standing in for a retired track). A determined fix claims the covariance its
    /// readings support on their own, the one a track would start with
    /// (`PositionMeasurement(startingTrackAt:time:maximumVariance:)`: the centroid prior's
    /// information out, scaled by max(1, χ²/dof), variances at most `maximumVariance` m²); a
    /// fallback keeps its own.
    private mutating func report(
        time: Double, fix: Fix, floor: Floor, offset: Double, maximumVariance: Double, context: EpochContext
    ) -> PositionReport {
        var covariance = fix.covariance
        if fix.status.isDetermined {
            let alone = PositionMeasurement(startingTrackAt: fix, time: time, maximumVariance: maximumVariance)
            covariance.xx = alone.covarianceXX
            covariance.xy = alone.covarianceXY
            covariance.yy = alone.covarianceYY
        }
        var report = PositionReport(
            timestamp: time, device: device, position: fix.position, level: floor.level,
            covariance: covariance, zone: nil,
            source: fix.status.isDetermined ? .fix : .fallback, beaconCount: fix.usedBeacons.count,
            deviceOffset: offset)
        zones.decide(
            &report, position: fix.position.planar, floor: floor, adjacency: context.site.zoneAdjacency[floor.level])
        return report
    }
}

extension DeviceTrack {
    /// Sorts samples by time, then beacon, then RSSI, in place: an insertion sort, linear and
    /// allocation-free for samples that arrive nearly in time order (as they do; the standard
    /// library's sort allocates a buffer on every call). Samples that are far from that order (a
    /// whole file at one timestamp, beacons interleaved) would make it quadratic (100,000 rows
    /// at one time took 6.5 s), so after a linear number of moves the rest is left to the
    /// standard library's O(n log n) sort. Samples with equal keys are equal in every field, so
    /// either way gives the same order.
    static func sortInPlace(_ samples: inout [Pending]) {
        guard samples.count > 1 else { return }
        var moves = 0
        let budget = 8 * samples.count + 64
        for i in 1..<samples.count {
            let item = samples[i]
            var j = i
            while j > 0, item.precedes(samples[j - 1]) {
                samples[j] = samples[j - 1]
                j -= 1
            }
            if j != i { samples[j] = item }
            moves += i - j
            if moves > budget {
                samples.sort { $0.precedes($1) }
                return
            }
        }
    }
}

extension DeviceTrack.Pending {
    /// The canonical order of an epoch's samples: time, then beacon slot, then RSSI, then the
    /// activity hint.
    @inline(__always)
    func precedes(_ other: Self) -> Bool {
        (time, slot, rssi, activityRank) < (other.time, other.slot, other.rssi, other.activityRank)
    }
}

// MARK: Advancing the clock without samples

extension DeviceTrack {
    /// Closes every epoch that ends at or before `time − reorderDelay`, as a sample at `time`
    /// would, and reports the tracker's prediction at the end of each closed epoch that gave no
    /// report (no samples, or none usable): source ``PositionReport/Source/predicted``, no
    /// beacons, the covariance grown by the motion model. Predictions stop after the first one
    /// that reaches the tracker's `TrackerConfiguration/maximumPositionVariance` (the track
    /// then coasts no further); the remaining empty epochs are skipped in one step, so a far
    /// `time` costs no more than a near one. Nothing is predicted without a track (raw fixes, or
    /// before the first determined fix).
    mutating func advance(to time: Double, context: inout EpochContext, into reports: inout [PositionReport]) {
        let epoch = grid.length
        let limit = time - context.configuration.reorderDelay
        guard limit.isFinite, var start = grid.start else { return }
        var predicting = tracker != nil
        while limit >= start + epoch {
            let end = start + epoch
            guard end > start else { break }  // beyond Double's resolution of the grid
            var reported = false
            if pending.contains(where: { $0.time < end }) {
                reported = closeEpoch(end: end, context: &context, into: &reports)
            }
            grid.markClosed()
            if !reported, predicting, let tracker, let estimate = try? tracker.estimate(at: end),
                let level = tracker.level ?? self.level, let floor = context.beacons.floors[level]
            {
                // At the cap the track coasts no further: one capped prediction is reported (the
                // one whose epoch reached it, perhaps in an earlier call), then none.
                let cap = tracker.maximumPositionVariance * (1 - 1e-9)
                func capped(_ e: TrackEstimate) -> Bool { e.covarianceXX >= cap || e.covarianceYY >= cap }
                if let previous = try? tracker.estimate(at: start), capped(previous) {
                    predicting = false
                } else {
                    var predicted = PositionReport(
                        timestamp: end, device: device,
                        position: context.geometry.position(estimate.position, onLevel: level),
                        level: level, covariance: estimate.horizontalCovariance, velocity: estimate.velocity,
                        zone: nil, source: .predicted, beaconCount: 0, deviceOffset: tracker.deviceOffset)
                    zones.decide(
                        &predicted, position: estimate.position, floor: floor,
                        adjacency: context.site.zoneAdjacency[level])
                    if context.configuration.lag > 0 {
                        held.append(predicted)
                    } else {
                        passWalls(&predicted, context: context)
                        reports.append(predicted)
                    }

                    predicting = !capped(estimate)
                }
            }
            predicting = predicting && tracker != nil
            // Nothing to report until the next pending sample: skip the empty epochs in one
            // step, keeping the grid.
            let next = predicting ? end : min(pending.lazy.map(\.time).min() ?? limit, limit)
            start = grid.afterClock(end: end, next: next, skipping: !predicting)
        }
        let lag = context.configuration.lag
        if lag > 0 { release(upTo: limit - lag, context: &context, into: &reports) }
    }
}

// MARK: Fixed-lag smoothing

extension DeviceTrack {
    /// Replaces each held report of the current track by its smoothed estimate over the
    /// track's recorded window (``TrackerBank/smoothedWindow(into:workspace:)``), then lets the track forget
    /// the steps that no held report needs, so that memory and work stay within the lag.
    fileprivate mutating func refineHeld(context: inout EpochContext) {
        guard var current = tracker else { return }
        // Mutated away from `tracker` so that its storage stays uniquely referenced.
        tracker = nil
        defer { tracker = current }
        var estimates = context.lagEstimates
        context.lagEstimates = []
        defer { context.lagEstimates = estimates }
        if (try? current.smoothedWindow(into: &estimates, workspace: &context.lagWorkspace)) != nil {
            var e = 0
            for i in held.indices where held[i].source == .tracked || held[i].source == .smoothed {
                // Both are in time order: the step at this report's time, if the track has it.
                while e < estimates.count, estimates[e].time < held[i].timestamp { e += 1 }
                guard e < estimates.count, estimates[e].time == held[i].timestamp,
                    estimates[e].level == nil || estimates[e].level == held[i].level
                else { continue }
                let estimate = estimates[e]
                let inside = context.geometry.keptInside(estimate.position, onLevel: held[i].level)
                held[i].position = context.geometry.position(inside, onLevel: held[i].level)
                held[i].covariance = estimate.horizontalCovariance
                held[i].velocity = estimate.velocity
                held[i].source = .smoothed
            }
        }
        let oldest = held.first { $0.source == .tracked || $0.source == .smoothed }?.timestamp
        current.discardHistory(before: min(oldest ?? current.time, current.time))
    }

    /// What the lag keeps of this device: held reports and the current track's recorded steps
    /// (the largest member's); both stay within the window's epochs.
    var lagWindow: (reports: Int, steps: Int) {
        (held.count, tracker?.histories.map(\.count).max() ?? 0)
    }

    /// Hands the held reports stamped at or before `time` to `reports`, oldest first, each with
    /// its zone decided on its final position; with online learning, each tracked report's
    /// samples teach the learner at that position (the refined one, rather than the causal).
    fileprivate mutating func release(
        upTo time: Double, context: inout EpochContext, into reports: inout [PositionReport]
    ) {
        var count = 0
        while count < held.count, held[count].timestamp <= time { count += 1 }
        guard count > 0 else { return }
        var lessons = 0
        for i in 0..<count {
            var report = held[i]
            var taught = lessons
            while taught < heldLessons.count, heldLessons[taught].report <= report.timestamp { taught += 1 }
            if taught > lessons, report.source == .tracked || report.source == .smoothed {
                context.learn(
                    heldLessons[lessons..<taught].lazy.map { (slot: $0.slot, rssi: $0.rssi) }, level: report.level,
                    receiver: report.position, covariance: report.covariance,
                    offset: report.deviceOffset ?? deviceOffset(context: context))
            }
            lessons = taught
            // After learning, which weighs the position by the tracker's covariance, as causally;
            // before the zone rule, which weighs it by the reported one, as a monitor would.
            if report.source == .tracked || report.source == .smoothed {
                addConsidered(to: &report, keep: context.configuration.recordsHistory)
            }
            passWalls(&report, context: context)
            if let floor = context.beacons.floors[report.level] {
                lagZones.decide(
                    &report, position: report.position.planar, floor: floor,
                    adjacency: context.site.zoneAdjacency[report.level])
            }
            reports.append(report)
        }
        held.removeFirst(count)
        heldLessons.removeFirst(lessons)
    }

    /// Puts a report leaving this track into a door when its step from the track's previous
    /// report crosses one of its floor's walls (``WallPassage``), unless
    /// ``PositioningEngine/Configuration/stopsAtWalls`` is off.
    fileprivate mutating func passWalls(_ report: inout PositionReport, context: EpochContext) {
        guard context.configuration.stopsAtWalls else { return }
        passage.pass(&report, walls: context.geometry.walls(onLevel: report.level))
    }

    /// Gives a tracked report leaving the lag the covariance its refinement earned
    /// (``RefinementGain``, for a refined one) and the consider covariance recorded for its time,
    /// forgetting the epochs before it unless the smoother still needs them (`keep`).
    fileprivate mutating func addConsidered(to report: inout PositionReport, keep: Bool) {
        var k = 0
        while k < considered.count, considered[k].time < report.timestamp { k += 1 }
        if k < considered.count, considered[k].time == report.timestamp {
            let epoch = considered[k]
            if report.source == .smoothed {
                report.covariance = lagGain.covariance(
                    causal: epoch.covariance, causalPosition: epoch.position,
                    refined: report.covariance, refinedPosition: report.position.planar)
            }
            report.covariance.add(epoch.consider)
            k += 1
        }
        if !keep { considered.removeFirst(k) }
    }
}

extension DeviceTrack.Pending {
    /// A total order of the hints for the canonical sample order (none, stationary, walking).
    var activityRank: Int {
        switch activity {
        case nil: return 0
        case .stationary?: return 1
        case .walking?: return 2
        }
    }
}
