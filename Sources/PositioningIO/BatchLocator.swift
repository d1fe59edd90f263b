import Foundation
import IndoorPositioning

/// Positions a whole RSSI samples CSV (`FORMATS.md`) through a `ShardedPositioningEngine` on
/// ``jobs`` threads (the same reports for any number): what `indoorpos locate` does between
/// reading its options and printing its summary.
///
/// The file is read once and streamed while each device's rows are in time order to within a
/// second. A row further out of order ends that pass: the rest of the file is read for the
/// largest step back within a device, the output is emptied (the `restart` callback) and the
/// file is positioned again with the reorder delay it needs, or sorted in memory when a row steps
/// back more than 0.95 s (``BatchResult/sorted``). With smoothing every report is held until the
/// end and the smoothed track (Rauch–Tung–Striebel over each device's recorded history) is
/// written instead; without it each report is written as soon as the engine gives it, and
/// with `PositioningEngine.Configuration.idleRelease` devices not heard for that long are
/// finished and forgotten on the way.
///
/// A file with an `activity` column (the phone's own activity recognition) is positioned with
/// the tracker's motion modes, which the hints weigh (`MotionModes` with their defaults, when
/// the configuration has none; ``BatchResult/motionModesForActivity`` says so).
///
/// The result does not depend on the pass: a file whose rows are shuffled within one second of
/// their device's order, or sorted from any order, gives the reports of the file in order.
public struct BatchLocator: Sendable {
    /// The building.
    public let plan: FloorPlan
    /// Per-beacon path-loss models that override the plan's (from a calibration file, or learned).
    public let models: [BeaconIdentity: PathLossModel]
    /// The engine's settings; its reorder delay is set per pass.
    public let configuration: PositioningEngine.Configuration
    /// Write the smoothed track instead of the causal one (needs Kalman tracking; the engine
    /// then records its histories, and idle release is off).
    public let smooth: Bool
    /// Skip malformed rows (counted in ``BatchResult/counts``) instead of stopping at the first.
    public let skipBadRows: Bool
    /// Threads that position devices, the reading thread among them (see
    /// `ShardedPositioningEngine`): the reports are the same for every value.
    public let jobs: Int
    /// With an engine that learns its detection curve (`PositioningEngine.Configuration.learnsDetection`):
    /// learn it from a first pass over the whole file before positioning it
    /// (``learnDetection(path:)``), instead of as the input goes. Two passes, so every fallback
    /// uses the curve of all the file's determined fixes, later ones included (not causal).
    public let detectionFirstPass: Bool

    /// A locator for `plan` with `models` overriding the plan's and the engine settings
    /// `configuration`; `smooth` turns on its history recording and turns off idle release.
    public init(
        plan: FloorPlan, models: [BeaconIdentity: PathLossModel] = [:],
        configuration: PositioningEngine.Configuration = PositioningEngine.Configuration(),
        smooth: Bool = false, skipBadRows: Bool = false, jobs: Int = 1, detectionFirstPass: Bool = false
    ) {
        self.plan = plan
        self.models = models
        var configuration = configuration
        if smooth {
            configuration.recordsHistory = true
            configuration.idleRelease = nil
        }
        self.configuration = configuration
        self.smooth = smooth
        self.skipBadRows = skipBadRows
        self.jobs = max(jobs, 1)
        self.detectionFirstPass = detectionFirstPass
    }

    /// Positions the RSSI samples CSV at `path`.
    ///
    /// - Parameters:
    ///   - path: the samples file (`timestamp,uuid,major,minor,rssi[,device]`).
    ///   - hasDevices: called once, before the first report, with whether the file has a device
    ///     column (a writer may want the column).
    ///   - write: receives the reports in output order.
    ///   - encoder: called once, after `hasDevices`; an encoder it returns (not used when
    ///     smoothing) has the worker threads encode each report, and then `writeEncoded` receives
    ///     the bytes of the reports in output order (with their number) instead of `write`
    ///     receiving the reports.
    ///   - writeEncoded: receives the encoded reports' bytes.
    ///   - restart: called before the file is positioned again; it must discard every report
    ///     written so far, or throw (for example ``BatchLocatorError/cannotStartOver(path:)``).
    ///   - progress: called with the number of samples done so far, after each sample.
    /// - Returns: the counts of the run.
    /// - Throws: the reader's `FileError`, the engine's `PositioningError`, what `restart`
    ///   throws, and ``BatchLocatorError/noUsableSample(path:detail:)`` when no sample could be
    ///   used (after every report was written: a caller that commits its output only on
    ///   success leaves no file).
    public func run(
        path: String, hasDevices: (Bool) throws -> Void = { _ in },
        write: (PositionReport) -> Void,
        encoder: () -> ShardedPositioningEngine.ReportEncoder? = { nil },
        writeEncoded: ([UInt8], Int) -> Void = { _, _ in },
        restart: () throws -> Void, progress: (Int) -> Void = { _ in }
    ) throws -> BatchResult {
        var configuration = self.configuration
        let detection = try learnDetectionIfAsked(path: path, into: &configuration.solver)
        // The file from its first row (again for the order check and for a start over).
        let skipBadRows = self.skipBadRows
        func open() throws(FileError) -> RSSISampleReader {
            try RSSISampleReader(path: path, skipBadRows: skipBadRows)
        }
        var reader = try open()
        try hasDevices(reader.hasDevices)
        let smooth = self.smooth
        let encoder = smooth ? nil : encoder()
        let modesForActivity = configuration.enableMotionModes(forActivityColumn: reader.hasActivity)
        var held: [PositionReport] = []
        var pass = SampleOrder.firstPass(hasDevices: reader.hasDevices)
        var engine: ShardedPositioningEngine
        var restarted = false
        while true {
            configuration.reorderDelay = pass.reorderDelay
            engine = try ShardedPositioningEngine(
                plan: plan, calibration: models, configuration: configuration, jobs: jobs, encoder: encoder)
            func emitReady() {
                if smooth {
                    engine.drain { held.append($0) }
                } else if encoder != nil {
                    engine.drainEncoded(writeEncoded)
                } else {
                    engine.drain(write)
                }
            }
            if pass == .sorted {
                var all: [RSSISample] = []
                while let sample = try reader.next() { all.append(sample) }
                for (done, sample) in PositioningEngine.inBatchOrder(all).enumerated() {
                    engine.push(sample)
                    emitReady()
                    progress(done + 1)
                }
                break
            }
            var order = SampleOrder(pass: pass, idleRelease: configuration.idleRelease) {
                count, body throws(FileError) in
                let again = try open()
                for _ in 0..<count {
                    guard let sample = try again.next() else { break }
                    body(sample)
                }
            }
            var next: SampleOrder.Pass?
            while let sample = try reader.next() {
                if try !order.admits(sample) {
                    next = try order.passAfterReading(reader)
                    break
                }
                engine.push(sample, deviceHash: reader.deviceHash)
                emitReady()
                progress(reader.counts.read)
            }
            guard var next else { break }
            // A second start over could only come from a file changing under us: sort.
            if restarted { next = .sorted }
            restarted = true
            try restart()
            held.removeAll()
            pass = next
            reader = try open()
        }
        if smooth {
            held += engine.finish()
        } else if encoder != nil {
            engine.finishReleasingEncoded(writeEncoded)
        } else {
            engine.finishReleasing(write)
        }
        if smooth { try engine.smooth(held).forEach(write) }
        var result = BatchResult(
            counts: reader.counts, statistics: engine.statistics, sorted: pass == .sorted,
            restarts: restarted ? 1 : 0, setApart: engine.inconsistentBeacons,
            learnedModels: engine.learnedModels)
        result.motionModesForActivity = modesForActivity && engine.statistics.activityHints > 0
        result.detection = detection
        result.learnedDetection = engine.learnedDetection
        if engine.statistics.accepted == 0 {
            throw BatchLocatorError.noUsableSample(path: SpooledInput.label(for: path), detail: result.readAndSkipped)
        }
        return result
    }
}

extension BatchLocator {
    /// With ``detectionFirstPass``, ``configuration``'s fallback
    /// `TrilaterationSolver.Fallback.detectionPosterior` and no detection curve in it,
    /// ``learnDetection(path:)`` and its result applied to `solver`
    /// (`BatchResult.DetectionLearning.apply(to:)`); nil (and `solver` unchanged) otherwise.
    public func learnDetectionIfAsked(
        path: String, into solver: inout TrilaterationSolver.Configuration
    ) throws -> BatchResult.DetectionLearning? {
        guard detectionFirstPass, configuration.learnsDetection else { return nil }
        let learning = try learnDetection(path: path)
        learning.apply(to: &solver)
        return learning
    }

    /// The detection curve of the file's own traffic: a first pass positions the file as
    /// ``run(path:hasDevices:write:encoder:writeEncoded:restart:progress:)`` would (fallbacks
    /// as weighted centroids, nothing written) and records, at every determined fix, which
    /// beacons of its level were heard (`PositioningEngine.Configuration.recordsDetections`);
    /// the model is fitted from a bounded sample of those scans (`DetectionScans.fit()`), and the
    /// fixes' a-posteriori variance factor is kept for the fallbacks' readings. No
    /// truth is used: the positions are the fixes'. The sample does not depend on the order the
    /// scans came in, so the model is the same for any number of ``jobs``.
    public func learnDetection(path: String) throws -> BatchResult.DetectionLearning {
        var configuration = self.configuration
        configuration.solver.fallback = .weightedCentroid
        configuration.recordsDetections = true
        configuration.recordsHistory = false
        let first = BatchLocator(
            plan: plan, models: models, configuration: configuration, smooth: false, skipBadRows: skipBadRows,
            jobs: jobs)
        let result = try first.run(path: path, write: { _ in }, restart: {})
        let scans = result.statistics.detections
        return BatchResult.DetectionLearning(
            scans: scans, model: scans.fit(), varianceFactor: max(1, result.statistics.varianceFactor ?? 1))
    }
}
