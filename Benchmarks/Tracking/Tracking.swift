import Benchmark
import BenchmarkSupport
import Foundation
import IndoorPositioning

// The Kalman tracker on a phone walking at 1.1 m/s on a circle in a 24 × 16 m room with 8
// beacons at 2.6 m, each heard at 4 Hz (32 samples/s in all), σ = 4 dB. The walk's samples are
// generated once, before measuring; the measured loops reuse the tracker and one buffer.

let beacons: [Point3D] = [(2.0, 2.0), (12, 1), (22, 2), (23, 8), (22, 14), (12, 15), (2, 14), (1, 8)]
    .map { Point3D(x: $0.0, y: $0.1, z: 2.6) }
let model = PathLossModel(measuredPower: -59, exponent: 2, sigma: 4)
let rate = 32.0

/// Where the phone is at `time`: a circle of radius 5 m around the room's middle at 1.1 m/s.
func position(at time: Double) -> Point2D {
    let angle = 1.1 / 5 * time
    return Point2D(x: 12 + 5 * cos(angle), y: 8 + 5 * sin(angle))
}

/// `count` RSSI samples of the walk from time 0, one beacon after the other.
func walkSamples(count: Int) -> [RSSIMeasurement] {
    var generator = XorShiftGenerator(state: 0x2545_F491_4F6C_DD1D)
    return (0..<count).map { index in
        let time = Double(index) / rate
        let beacon = beacons[index % beacons.count]
        let p = position(at: time)
        let dx = p.x - beacon.x, dy = p.y - beacon.y, dz = 1.2 - beacon.z
        let rssi = model.expectedRSSI(atDistance: (dx * dx + dy * dy + dz * dz).squareRoot()) + 4 * generator.gaussian()
        return RSSIMeasurement(time: time, beaconPosition: beacon, model: model, rssi: rssi)
    }
}

/// A tracker started at the walk's first position.
func startedTracker(recordsHistory: Bool = false) throws -> KalmanTracker {
    var configuration = TrackerConfiguration()
    configuration.recordsHistory = recordsHistory
    return try KalmanTracker(
        first: PositionMeasurement(time: 0, position: position(at: 0), sigma: 1.5),
        configuration: configuration)
}

/// The engine's tracker started at the walk's first position: a bank of the default shadowing
/// models (independent samples, and 40 % correlated over 5 s with a bias state per beacon) with
/// the device offset estimated, as `PositioningEngine` runs it; or, with `plain`, one member
/// with the offset fixed and no bias states (the plain constant-velocity filter).
func startedBank(plain: Bool = false, recordsHistory: Bool = false) throws -> TrackerBank {
    var configuration = TrackerConfiguration()
    configuration.recordsHistory = recordsHistory
    return try TrackerBank(
        first: PositionMeasurement(time: 0, position: position(at: 0), sigma: 1.5),
        configuration: configuration, offset: plain ? .fixed(0) : DeviceOffsetModel(),
        shadowing: plain ? [.independent] : [.independent, ShadowingModel(maximumStates: 8)],
        floorElevation: 0)
}

/// The walk's samples keyed by beacon (each beacon's shadowing bias is a state of the bank).
func keyedWalkSamples(count: Int) -> [RSSIMeasurement] {
    walkSamples(count: count).enumerated().map { index, sample in
        var keyed = sample
        keyed.beaconKey = index % beacons.count
        return keyed
    }
}

/// The walk's samples repeat every `period` samples (a whole number of circles, so that the
/// phone is back where it started); a sample's time goes on from where the last one ended.
let period = 65_536
/// The committed threshold: a steady-state loop allocates nothing, but the harness itself
/// allocates about 16–24 times per measured iteration, so 50 are allowed; one allocation in
/// the loop adds 1,000 per iteration (`scalingFactor: .kilo`).
var noAllocations: [BenchmarkMetric: BenchmarkThresholds] { [.mallocCountTotal: .init(absolute: [.p90: 50])] }

let benchmarks: @Sendable () -> Void = {
    // One RSSI sample fused (prediction to its time + one EKF update). 1,000 per iteration.
    Benchmark(
        "TrackerRSSIUpdate",
        configuration: .init(
            metrics: [.wallClock, .throughput, .mallocCountTotal, .instructions], scalingFactor: .kilo,
            maxDuration: .seconds(2), maxIterations: 100_000, thresholds: noAllocations)
    ) { benchmark in
        let samples = walkSamples(count: period)
        var tracker = try startedTracker()
        var index = 1
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            var sample = samples[index % period]
            sample.time = Double(index) / rate
            sample.rssi = samples[index % period].rssi
            _ = try? tracker.update(sample)
            index += 1
        }
        benchmark.stopMeasurement()
        blackHole(tracker.estimate.position.x)
    }

    // One epoch of 1 s: the prediction and the iterated update with its 32 samples. 1,000
    // epochs per iteration.
    Benchmark(
        "TrackerEpochUpdate",
        configuration: .init(
            metrics: [.wallClock, .throughput, .mallocCountTotal, .instructions], scalingFactor: .kilo,
            maxDuration: .seconds(2), maxIterations: 100_000, thresholds: noAllocations)
    ) { benchmark in
        let samples = walkSamples(count: period)
        var tracker = try startedTracker()
        var epoch: [RSSIMeasurement] = Array(samples.prefix(32))
        var first = 32
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            for k in 0..<32 {
                epoch[k] = samples[(first + k) % period]
                epoch[k].time = Double(first + k) / rate
            }
            first += 32
            _ = try? tracker.update(epoch, at: Double(first) / rate)
        }
        benchmark.stopMeasurement()
        blackHole(tracker.estimate.position.x)
    }

    // Rauch–Tung–Striebel smoothing of a recorded track of 10,000 steps (epochs).
    Benchmark(
        "RTSSmoothing10000Steps",
        configuration: .init(
            metrics: [.wallClock, .throughput, .mallocCountTotal, .instructions],
            maxDuration: .seconds(3), maxIterations: 1_000, thresholds: noAllocations)
    ) { benchmark in
        let samples = walkSamples(count: 32 * 10_000)
        var tracker = try startedTracker(recordsHistory: true)
        for epoch in 0..<10_000 {
            _ = try? tracker.update(samples[(32 * epoch)..<(32 * epoch + 32)], at: Double(32 * epoch + 32) / rate)
        }
        let steps = tracker.history
        let smoother = RTSSmoother()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try smoother.smooth(steps).count)
        }
        benchmark.stopMeasurement()
    }

    // The engine's tracker: one epoch of 1 s (32 samples) fused by the bank of two members,
    // each with the device offset and 8 bias states (n = 13), re-weighed by evidence. 1,000
    // epochs per iteration.
    Benchmark(
        "BankEpochUpdate",
        configuration: .init(
            metrics: [.wallClock, .throughput, .mallocCountTotal, .instructions], scalingFactor: .kilo,
            maxDuration: .seconds(2), maxIterations: 100_000, thresholds: noAllocations)
    ) { benchmark in
        let samples = keyedWalkSamples(count: period)
        var bank = try startedBank()
        var epoch: [RSSIMeasurement] = Array(samples.prefix(32))
        var first = 32
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            for k in 0..<32 {
                epoch[k] = samples[(first + k) % period]
                epoch[k].time = Double(first + k) / rate
            }
            first += 32
            _ = try? bank.update(epoch, at: Double(first) / rate)
            blackHole(bank.estimate.position.x)
        }
        benchmark.stopMeasurement()
    }

    // The same epoch through the engine's tracker with every option off (one member, offset
    // fixed, no bias states): what the plain filter's epoch update costs in it. 1,000 epochs
    // per iteration, as TrackerEpochUpdate.
    Benchmark(
        "BankEpochUpdatePlain",
        configuration: .init(
            metrics: [.wallClock, .throughput, .mallocCountTotal, .instructions], scalingFactor: .kilo,
            maxDuration: .seconds(2), maxIterations: 100_000, thresholds: noAllocations)
    ) { benchmark in
        let samples = walkSamples(count: period)
        var bank = try startedBank(plain: true)
        var epoch: [RSSIMeasurement] = Array(samples.prefix(32))
        var first = 32
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            for k in 0..<32 {
                epoch[k] = samples[(first + k) % period]
                epoch[k].time = Double(first + k) / rate
            }
            first += 32
            _ = try? bank.update(epoch, at: Double(first) / rate)
        }
        benchmark.stopMeasurement()
        blackHole(bank.estimate.position.x)
    }

    // Smoothing a bank's recorded batch of 1,000 epochs (both members smoothed, then mixed).
    Benchmark(
        "BankSmoothing1000Steps",
        configuration: .init(
            metrics: [.wallClock, .throughput, .mallocCountTotal, .instructions],
            maxDuration: .seconds(3), maxIterations: 1_000)
    ) { benchmark in
        let samples = keyedWalkSamples(count: 32 * 1_000)
        var bank = try startedBank(recordsHistory: true)
        for epoch in 0..<1_000 {
            _ = try? bank.update(samples[(32 * epoch)..<(32 * epoch + 32)], at: Double(32 * epoch + 32) / rate)
        }
        let histories = bank.histories, evidence = bank.totalLogEvidence
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try TrackerBank.smooth(histories, totalLogEvidence: evidence).count)
        }
        benchmark.stopMeasurement()
    }
}
