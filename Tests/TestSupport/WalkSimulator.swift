import BeaconModel
import Foundation
import Ranging

/// A seeded simulation of a person walking through a rectangular room with BLE beacons, for
/// accuracy tests and benchmarks: the truth trajectory and the RSSI samples a phone would see.
///
/// The walker goes from random waypoint to random waypoint (at least 3 m apart, 1.5 m from the
/// walls) in straight legs at a speed drawn per leg from `speedRange`, turning at each waypoint
/// and pausing there with probability `pauseProbability` for a time drawn from `pauseRange`.
/// Each beacon is heard about `sampleRate` times per second at jittered times (interval
/// 1/rate × U(0.7, 1.3)), with RSSI = P₀ − 10 n log₁₀ d + N(0, σ²), d the 3-D distance from the
/// receiver (at `receiverHeight`) to the beacon.
public struct WalkSimulator: Sendable {
    /// The simulation's parameters. The defaults are the reference walk of the tracking tests: 8 beacons at 2.6 m
    /// in 24 × 16 m, receiver at 1.2 m, σ = 4 dB, 4 samples/s per beacon, 1.0–1.3 m/s, 5 minutes.
    public struct Configuration: Sendable {
        public var width = 24.0
        public var height = 16.0
        public var duration = 300.0
        public var beaconHeight = 2.6
        public var receiverHeight = 1.2
        public var model = PathLossModel(measuredPower: -59, exponent: 2, sigma: 4)
        public var sampleRate = 4.0
        public var speedRange = 1.0...1.3
        public var pauseProbability = 0.25
        public var pauseRange = 2.0...6.0
        /// Beacon positions in the plane; nil: the default 8 around the room, 1 m from the walls.
        public var beaconLayout: [Point2D]?
        /// The phone's RSSI offset against `model`, dB: every sample reads this much higher.
        public var deviceOffset = 0.0
        /// Share of σ² that is time-correlated shadowing (AR(1) per beacon); 0: independent.
        public var shadowingShare = 0.0
        /// Correlation time of that shadowing, seconds.
        public var shadowingTime = 3.0
        /// The exponent the signals really follow (nil: `model`'s): a plan with a wrong exponent.
        public var trueExponent: Double?
        /// Each beacon's own measured power and exponent that its signals really follow (nil:
        /// `model`'s, or `trueExponent`); σ stays `model`'s. A site whose beacons differ.
        public var beaconModels: [PathLossModel]?

        public init() {}

        /// A 10-minute walk with stops of 5–60 s after about half the legs and speeds from a
        /// stroll to a brisk walk (0.5–1.4 m/s): the motion-mode and activity-hint tests' walk.
        public static var pausingWalk: Configuration {
            var c = Configuration()
            c.duration = 600
            c.pauseProbability = 0.5
            c.pauseRange = 5...60
            c.speedRange = 0.5...1.4
            return c
        }
    }

    /// One RSSI sample: time (s), index into ``beacons``, RSSI (dBm).
    public struct Sample: Sendable, Hashable {
        public var time: Double
        public var beacon: Int
        public var rssi: Double
    }

    /// One straight leg (or pause, when start == end) of the truth trajectory.
    public struct Leg: Sendable, Hashable {
        public var startTime: Double
        public var endTime: Double
        public var start: Point2D
        public var end: Point2D
    }

    /// The parameters used.
    public let configuration: Configuration
    /// Beacon positions, metres (z = beacon height).
    public let beacons: [Point3D]
    /// All samples, sorted by time.
    public let samples: [Sample]
    /// The truth trajectory as consecutive legs covering [0, duration].
    public let legs: [Leg]

    /// Simulates a walk fixed by `seed`.
    public init(seed: UInt64, configuration: Configuration = Configuration()) {
        self.configuration = configuration
        var rng = SeededGenerator(seed: seed)
        let c = configuration
        let layout =
            c.beaconLayout ?? [
                Point2D(x: 1, y: 1), Point2D(x: c.width / 2, y: 1), Point2D(x: c.width - 1, y: 1),
                Point2D(x: c.width - 1, y: c.height / 2), Point2D(x: c.width - 1, y: c.height - 1),
                Point2D(x: c.width / 2, y: c.height - 1), Point2D(x: 1, y: c.height - 1), Point2D(x: 1, y: c.height / 2)
            ]
        beacons = layout.map { Point3D($0, z: c.beaconHeight) }

        // Truth: waypoint legs with pauses.
        let margin = 1.5
        func waypoint(_ rng: inout SeededGenerator) -> Point2D {
            Point2D(
                x: Double.random(in: margin...(c.width - margin), using: &rng),
                y: Double.random(in: margin...(c.height - margin), using: &rng))
        }
        var legs: [Leg] = []
        var t = 0.0
        var here = waypoint(&rng)
        while t < c.duration {
            var next = waypoint(&rng)
            while next.distance(to: here) < 3 { next = waypoint(&rng) }
            let speed = Double.random(in: c.speedRange, using: &rng)
            let legTime = next.distance(to: here) / speed
            legs.append(Leg(startTime: t, endTime: t + legTime, start: here, end: next))
            t += legTime
            here = next
            if Double.random(in: 0..<1, using: &rng) < c.pauseProbability {
                let pause = Double.random(in: c.pauseRange, using: &rng)
                legs.append(Leg(startTime: t, endTime: t + pause, start: here, end: here))
                t += pause
            }
        }
        self.legs = legs

        // Samples per beacon at jittered times.
        var samples: [Sample] = []
        let interval = 1 / c.sampleRate
        var signal = c.model
        if let trueExponent = c.trueExponent { signal.exponent = trueExponent }
        signal.measuredPower += c.deviceOffset
        let share = c.shadowingShare
        for (index, beacon) in beacons.enumerated() {
            if let own = c.beaconModels?[index] {
                signal.measuredPower = own.measuredPower + c.deviceOffset
                signal.exponent = own.exponent
            }
            var ts = Double.random(in: 0..<interval, using: &rng)
            // AR(1) shadowing of this beacon, started from its stationary distribution.
            let biasSigma = (share * c.model.sigma * c.model.sigma).squareRoot()
            var bias = share > 0 ? rng.gaussian(sigma: biasSigma) : 0
            var biasTime = ts
            let whiteSigma = ((1 - share) * c.model.sigma * c.model.sigma).squareRoot()
            while ts < c.duration {
                let p = Self.position(at: ts, legs: legs)
                let d = Point3D(p, z: c.receiverHeight).distance(to: beacon)
                if share > 0 {
                    let rho = Foundation.exp(-(ts - biasTime) / c.shadowingTime)
                    bias = rho * bias + rng.gaussian(sigma: biasSigma * (1 - rho * rho).squareRoot())
                    biasTime = ts
                }
                let rssi = signal.expectedRSSI(atDistance: d) + bias + rng.gaussian(sigma: whiteSigma)
                samples.append(Sample(time: ts, beacon: index, rssi: rssi))
                ts += interval * Double.random(in: 0.7...1.3, using: &rng)
            }
        }
        samples.sort { $0.time < $1.time }
        self.samples = samples
    }

    /// The true position at `time` seconds (clamped to the walk).
    public func position(at time: Double) -> Point2D { Self.position(at: time, legs: legs) }

    static func position(at time: Double, legs: [Leg]) -> Point2D {
        guard let first = legs.first, let last = legs.last else { return .zero }
        if time <= first.startTime { return first.start }
        if time >= last.endTime { return last.end }
        var lo = 0, hi = legs.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if legs[mid].startTime <= time { lo = mid } else { hi = mid - 1 }
        }
        let leg = legs[lo]
        let span = leg.endTime - leg.startTime
        let f = span > 0 ? min(1, max(0, (time - leg.startTime) / span)) : 0
        return leg.start + f * (leg.end - leg.start)
    }

    /// The samples with `start ≤ time < end`, in time order.
    public func samples(from start: Double, to end: Double) -> ArraySlice<Sample> {
        let lo = samples.partitionPoint { $0.time < start }
        let hi = samples.partitionPoint { $0.time < end }
        return samples[lo..<hi]
    }
}

extension Array {
    /// The first index whose element does not satisfy `belongs` (the array is partitioned so
    /// that all elements satisfying it come first).
    func partitionPoint(_ belongs: (Element) -> Bool) -> Int {
        var lo = 0, hi = count
        while lo < hi {
            let mid = (lo + hi) / 2
            if belongs(self[mid]) { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
