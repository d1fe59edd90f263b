import Foundation
import TestSupport
import Testing

@testable import IndoorPositioning

/// `ShardedPositioningEngine`: devices on several threads, the same reports for every number
/// of threads, and the reports of one engine while the consistency watch changes no decision.
@Suite("Sharded engine: the same reports on any number of threads")
struct ShardedEngineTests {
    struct Outcome: Equatable {
        var reports: [PositionReport]
        var setApart: [BeaconIdentity]
        var learned: [LearnedPathLoss]?
        var accepted: Int
        var releasedDevices: Int
        var learnedModelUpdates: Int

        init(
            reports: [PositionReport], setApart: [BeaconIdentity], learned: [LearnedPathLoss]?,
            statistics: PositioningEngine.Statistics
        ) {
            self.reports = reports
            self.setApart = setApart
            self.learned = learned
            accepted = statistics.accepted
            releasedDevices = statistics.releasedDevices
            learnedModelUpdates = statistics.learnedModelUpdates
        }

        /// Where `other` first differs from this outcome (nil: nowhere), short enough to read.
        func difference(from other: Outcome) -> String? {
            for i in 0..<min(reports.count, other.reports.count) where reports[i] != other.reports[i] {
                return "report \(i): \(reports[i]) against \(other.reports[i])"
            }
            if reports.count != other.reports.count { return "\(reports.count) against \(other.reports.count) reports" }
            if setApart != other.setApart { return "set apart \(setApart) against \(other.setApart)" }
            if learned != other.learned { return "learned models differ" }
            if (accepted, releasedDevices, learnedModelUpdates) != (
                other.accepted, other.releasedDevices, other.learnedModelUpdates
            ) {
                return "counts differ"
            }
            return nil
        }
    }

    /// Every report of `samples` through a sharded engine on `jobs` threads.
    static func sharded(
        _ samples: [RSSISample], plan: FloorPlan, calibration: [BeaconIdentity: PathLossModel] = [:],
        configuration: PositioningEngine.Configuration, jobs: Int, smooth: Bool = false
    ) throws -> Outcome {
        let engine = try ShardedPositioningEngine(
            plan: plan, calibration: calibration, configuration: configuration, jobs: jobs)
        var reports: [PositionReport] = []
        for sample in samples {
            engine.push(sample)
            engine.drain { reports.append($0) }
        }
        if smooth {
            // Finished first: `engine.smooth(reports + engine.finish())` may read the engine before.
            reports += engine.finish()
            reports = try engine.smooth(reports)
        } else {
            engine.finishReleasing { reports.append($0) }
        }
        return Outcome(
            reports: reports, setApart: engine.inconsistentBeacons, learned: engine.learnedModels,
            statistics: engine.statistics)
    }

    /// The same through one `PositioningEngine`.
    static func single(
        _ samples: [RSSISample], plan: FloorPlan, calibration: [BeaconIdentity: PathLossModel] = [:],
        configuration: PositioningEngine.Configuration, smooth: Bool = false
    ) throws -> Outcome {
        var engine = try PositioningEngine(plan: plan, calibration: calibration, configuration: configuration)
        var reports: [PositionReport] = []
        for sample in samples {
            engine.push(sample)
            reports += engine.pull()
        }
        if smooth {
            // Finished first: `engine.smooth(reports + engine.finish())` may read the engine before.
            reports += engine.finish()
            reports = try engine.smooth(reports)
        } else {
            engine.finishReleasing { reports.append($0) }
        }
        return Outcome(
            reports: reports, setApart: engine.inconsistentBeacons, learned: engine.learnedModels,
            statistics: engine.statistics)
    }

    /// Multi-device traffic over several slices: 60 visitors (10 coming back) and 100 phones heard once.
    static func traffic(seed: UInt64) throws -> (SimulatedSite, [RSSISample]) {
        let site = try SimulatedSite(seed: seed)
        let samples = EngineCompactionTests.traffic(site: site, count: 60, returning: 10, once: 100)
        return (site, samples)
    }

    /// Every setting of the compaction tests, idle release, and smoothing (history recorded).
    static func settings() -> [(name: String, configuration: PositioningEngine.Configuration, smooth: Bool)] {
        var idle = PositioningEngine.Configuration()
        idle.idleRelease = 6
        var history = PositioningEngine.Configuration()
        history.recordsHistory = true
        return EngineCompactionTests.settings().map { ($0.0, $0.1, false) } + [
            ("idle release", idle, false), ("smoothed", history, true)
        ]
    }

    @Test("the consistency watch off: 1, 2 and 3 threads give one engine's reports, learned models and counts")
    func sameAsOneEngine() throws {
        let (site, samples) = try Self.traffic(seed: 41)
        // Several slices, so that slices and shards both matter.
        #expect(samples.count > ShardedPositioningEngine.sliceRows)
        for (name, setting, smooth) in Self.settings() {
            var configuration = setting
            configuration.excludesInconsistentBeacons = false
            let one = try Self.single(samples, plan: site.plan, configuration: configuration, smooth: smooth)
            #expect(one.reports.count > 300, "\(name)")
            if name == "idle release" { #expect(one.releasedDevices > 100) }
            if name == "learning" { #expect(one.learnedModelUpdates >= 2) }
            if smooth { #expect(one.reports.filter { $0.source == .smoothed }.count > 100) }
            for jobs in 1...3 {
                let many = try Self.sharded(
                    samples, plan: site.plan, configuration: configuration, jobs: jobs, smooth: smooth)
                #expect(many.difference(from: one) == nil, "\(name), \(jobs) jobs")
            }
        }
    }

    @Test("with an encoder, the workers' bytes are the reports' encodings in the reports' order")
    func encodedReports() throws {
        let (site, samples) = try Self.traffic(seed: 43)
        let encoder: ShardedPositioningEngine.ReportEncoder = { report, bytes in
            bytes.append(contentsOf: "\(report)\n".utf8)
        }
        for (name, setting, smooth) in Self.settings() where !smooth {
            for jobs in 1...3 {
                let plain = try Self.sharded(samples, plan: site.plan, configuration: setting, jobs: jobs)
                let engine = try ShardedPositioningEngine(
                    plan: site.plan, configuration: setting, jobs: jobs, encoder: encoder)
                var bytes: [UInt8] = []
                var count = 0
                var chunks = 0
                func take(_ chunk: [UInt8], _ reports: Int) {
                    #expect(!chunk.isEmpty && reports > 0)
                    bytes += chunk
                    count += reports
                    chunks += 1
                }
                for sample in samples {
                    engine.push(sample)
                    engine.drainEncoded(take)
                    engine.drain { _ in Issue.record("a report besides the bytes") }
                }
                engine.finishReleasingEncoded(take)
                var expected: [UInt8] = []
                for report in plain.reports { encoder(report, &expected) }
                #expect(count == plain.reports.count, "\(name), \(jobs) jobs")
                #expect(bytes == expected, "\(name), \(jobs) jobs")
                #expect(chunks > 2)
                #expect(engine.statistics.accepted == plain.accepted)
            }
        }
    }

    @Test("the consistency watch on: 2 and 3 threads give the reports of 1, for every setting")
    func sameForAnyJobs() throws {
        let (site, samples) = try Self.traffic(seed: 42)
        for (name, configuration, smooth) in Self.settings() {
            let one = try Self.sharded(samples, plan: site.plan, configuration: configuration, jobs: 1, smooth: smooth)
            for jobs in 2...3 {
                let many = try Self.sharded(
                    samples, plan: site.plan, configuration: configuration, jobs: jobs, smooth: smooth)
                #expect(many.difference(from: one) == nil, "\(name), \(jobs) jobs")
            }
        }
    }

    @Test("a misplaced beacon set apart: the same reports and decision on 1, 2 and 4 threads")
    func beaconSetApart() throws {
        let clean = try SimulatedSite(seed: 7)
        let b = clean.walk.beacons[0]
        let dx = 12 - b.x, dy = 8 - b.y, length = (dx * dx + dy * dy).squareRoot()
        let site = try SimulatedSite(seed: 7, misplaced: (0, Point2D(x: -6 * dx / length, y: -6 * dy / length)))
        // Twelve phones on the walk, 5 s apart: the watch's decision changes mid-input.
        var samples: [RSSISample] = []
        for phone in 0..<12 {
            for var sample in site.samples {
                sample.timestamp += 5 * Double(phone)
                sample.device = "phone\(phone)"
                samples.append(sample)
            }
        }
        samples = samples.enumerated().sorted { ($0.element.timestamp, $0.offset) < ($1.element.timestamp, $1.offset) }
            .map(\.element)
        // Surveyed models: only a measured beacon is ever set apart.
        let configuration = PositioningEngine.Configuration(), survey = site.survey
        let one = try Self.sharded(samples, plan: site.plan, calibration: survey, configuration: configuration, jobs: 1)
        #expect(one.setApart == [SimulatedSite.identity(0)])
        for jobs in [2, 4] {
            let many = try Self.sharded(
                samples, plan: site.plan, calibration: survey, configuration: configuration, jobs: jobs)
            #expect(many.difference(from: one) == nil, "\(jobs) jobs")
        }
        // Decisions take effect at slice ends instead of the next epoch: close to one engine.
        let single = try Self.single(samples, plan: site.plan, calibration: survey, configuration: configuration)
        #expect(single.setApart == one.setApart)
        let rmse = (sharded: site.rmse(one.reports), single: site.rmse(single.reports))
        #expect(abs(rmse.sharded - rmse.single) < 0.02 * rmse.single, "\(rmse)")
    }

    @Test("a batch on 1 and 3 threads: the reports of PositioningEngine.locate, smoothed or not")
    func batch() throws {
        let (site, samples) = try Self.traffic(seed: 43)
        var configuration = PositioningEngine.Configuration()
        configuration.excludesInconsistentBeacons = false
        for smooth in [false, true] {
            let one = try PositioningEngine.locate(
                samples.reversed(), plan: site.plan, configuration: configuration, smooth: smooth)
            #expect(one.count > 300)
            for jobs in [1, 3] {
                let many = try ShardedPositioningEngine.locate(
                    samples.reversed(), plan: site.plan, configuration: configuration, smooth: smooth, jobs: jobs)
                #expect(many == one, "smooth \(smooth), \(jobs) jobs")
            }
        }
    }

    @Test("devices spread evenly over the shards, names that differ in their last characters too")
    func shardsBalance() {
        // 10,000 names like the crowd batches' (phone000000 …), hashed as the reader hashes them.
        for count in [2, 8, 12] {
            var perShard = Array(repeating: 0, count: count)
            for i in 0..<10_000 {
                let name = String(format: "phone%06d", i)
                let k = ShardedPositioningEngine.shard(hash: DeviceNameHash.of(name), of: count)
                perShard[k] += 1
            }
            // A fair split has a binomial spread: σ = √(n p (1 − p)) ≤ 33 devices here; 5 σ allowed.
            let mean = 10_000.0 / Double(count)
            let sigma = (10_000 * (1 / Double(count)) * (1 - 1 / Double(count))).squareRoot()
            for (k, devices) in perShard.enumerated() {
                #expect(abs(Double(devices) - mean) <= 5 * sigma, "shard \(k) of \(count): \(devices) devices")
            }
        }
    }

    @Test("a slice completes on the owner's thread alone, each shard's rows run once, when no other thread starts")
    func ownerAlone() throws {
        let (site, samples) = try Self.traffic(seed: 43)
        var configuration = PositioningEngine.Configuration()
        configuration.excludesInconsistentBeacons = false
        var plain = try PositioningEngine(plan: site.plan, configuration: configuration)
        var expected: [PositionReport] = []
        for sample in samples {
            plain.push(sample)
            expected += plain.pull()
        }
        #expect(expected.count > 100)
        // Three shards, the rows shared out by device, and no thread but this one.
        var workers: [ShardWorker] = []
        for _ in 0..<3 {
            workers.append(ShardWorker(engine: try PositioningEngine(plan: site.plan, configuration: configuration)))
        }
        for (tag, sample) in samples.enumerated() {
            let hash = DeviceNameHash.of(sample.device)
            workers[ShardedPositioningEngine.shard(hash: hash, of: 3)].input.append(sample, tag: tag, hash: hash)
        }
        ShardQueue(workers: workers).finish()
        #expect(workers.allSatisfy { $0.input.samples.isEmpty })
        var reports = workers.flatMap { worker in zip(worker.output.reportTags, worker.output.reports).map { $0 } }
        reports.sort { $0.0 < $1.0 }
        #expect(reports.map(\.1) == expected)
    }

    @Test("slices of many rows in several shards go to other threads; one phone's stay on the caller's")
    func whichSlicesAreShared() throws {
        let (site, crowd) = try Self.traffic(seed: 47)
        let phone = site.samples.filter { $0.device == site.samples[0].device }
        #expect(phone.count > 1000)
        for (samples, shares) in [(crowd, true), (phone, false)] {
            let engine = try ShardedPositioningEngine(plan: site.plan, jobs: 2)
            var reports: [PositionReport] = []
            for sample in samples {
                engine.push(sample)
                engine.drain { reports.append($0) }
            }
            engine.finishReleasing { reports.append($0) }
            // One phone's slices (half an epoch of its rows) are too small to hand over.
            #expect((engine.sharedSlices > 0) == shares)
            let one = try Self.single(samples, plan: site.plan, configuration: PositioningEngine.Configuration())
            #expect(reports == one.reports)
        }
    }

    @Test("no threads is refused")
    func noJobs() throws {
        let site = try SimulatedSite(seed: 1)
        #expect(throws: PositioningError.self) { try ShardedPositioningEngine(plan: site.plan, jobs: 0) }
    }
}
