import BeaconModel
import Foundation
import TestSupport

@testable import Tracking

/// Runs the tracker over a simulated walk the way the engine will: a least-squares fix from the
/// first 1-s window starts the track, then every RSSI sample is fused at its own time (one
/// sample at a time, or the epoch's samples in one iterated update), the epoch's least-squares
/// fix only verifies the track (never fused), and an estimate is output at each epoch's end.
/// The common pipeline runs on the same samples; `strongBaseline` gives it each fix's
/// least-squares covariance and stamps fixes at the window centre.
struct WalkEvaluation {
    let walk: WalkSimulator
    let causal: [TrackEstimate]
    let smoothed: [TrackEstimate]
    let baseline: [CommonPipeline.Output]

    init(
        seed: UInt64, simulation: WalkSimulator.Configuration = WalkSimulator.Configuration(),
        configuration: TrackerConfiguration = TrackerConfiguration(recordsHistory: true), verify: Bool = true,
        epochUpdate: Bool = true, strongBaseline: Bool = false, unweightedBaseline: Bool = false
    ) throws {
        let walk = WalkSimulator(seed: seed, configuration: simulation)
        self.walk = walk
        let c = walk.configuration
        var pipeline = CommonPipeline(beacons: walk.beacons, model: c.model, receiverHeight: c.receiverHeight)
        pipeline.stampsAtWindowEnd = strongBaseline == false
        pipeline.fixSigma = strongBaseline ? nil : 1.5
        pipeline.unweighted = unweightedBaseline
        baseline = pipeline.run(walk).outputs
        pipeline.unweighted = false
        // The first fix of the tracker is the window's (centre-stamped) least-squares fix.
        pipeline.stampsAtWindowEnd = false

        let trackerModel = c.model
        var config = configuration
        config.receiverHeight = c.receiverHeight
        config.recordsHistory = true
        // Start from the first window's least-squares fix (never from a beacon's position).
        var epochStart = 0.0
        var tracker: KalmanTracker?
        while tracker == nil, epochStart < c.duration {
            if let fix = pipeline.fix(walk.samples(from: epochStart, to: epochStart + 1), windowStart: epochStart) {
                let first = PositionMeasurement(
                    time: fix.time, x: fix.position.x, y: fix.position.y,
                    covarianceXX: fix.covarianceXX, covarianceXY: fix.covarianceXY,
                    covarianceYY: fix.covarianceYY)
                tracker = try KalmanTracker(first: first, configuration: config)
            }
            epochStart += 1
        }
        guard var tracker else { throw TrackingError.emptyHistory }
        var outputs: [TrackEstimate] = []
        try tracker.predict(to: epochStart)
        outputs.append(tracker.estimate)
        while epochStart + 1 <= c.duration + 1e-9 {
            let window = walk.samples(from: epochStart, to: epochStart + 1)
            let measurements = window.map {
                RSSIMeasurement(
                    time: $0.time, beaconPosition: walk.beacons[$0.beacon], model: trackerModel, rssi: $0.rssi)
            }
            if epochUpdate {
                try tracker.update(measurements, at: epochStart + 1)
            } else {
                for m in measurements { try tracker.update(m) }
            }
            epochStart += 1
            if verify, let fix = pipeline.fix(window, windowStart: epochStart - 1) {
                let check = PositionMeasurement(
                    time: epochStart, x: fix.position.x, y: fix.position.y,
                    covarianceXX: fix.covarianceXX, covarianceXY: fix.covarianceXY,
                    covarianceYY: fix.covarianceYY)
                try tracker.verify(against: check)
            }
            try tracker.predict(to: epochStart)
            outputs.append(tracker.estimate)
        }
        causal = outputs
        let epochTimes = Set(outputs.map(\.time))
        smoothed = try RTSSmoother().smooth(tracker).filter { epochTimes.contains($0.time) }
    }

    /// Root-mean-square horizontal error against the truth, metres, over outputs at or after
    /// `from` seconds.
    func rmse(_ positions: [(time: Double, position: Point2D)], from: Double = 1) -> Double {
        var sum = 0.0, n = 0
        for p in positions where p.time >= from - 1e-9 {
            let e = p.position.distance(to: walk.position(at: p.time))
            sum += e * e
            n += 1
        }
        return n > 0 ? (sum / Double(n)).squareRoot() : .nan
    }

    var causalRMSE: Double { rmse(causal.map { ($0.time, $0.position) }) }
    var smoothedRMSE: Double { rmse(smoothed.map { ($0.time, $0.position) }) }
    var baselineRMSE: Double { rmse(baseline.map { ($0.time, $0.position) }) }

    /// Fraction of causal outputs whose error is at most their `accuracy`.
    var honesty: Double {
        let hits = causal.filter { $0.position.distance(to: walk.position(at: $0.time)) <= $0.accuracy }.count
        return Double(hits) / Double(max(causal.count, 1))
    }
}
