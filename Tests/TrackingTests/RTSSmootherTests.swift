import BeaconModel
import Foundation
import TestSupport
import Testing

@testable import Tracking

@Suite("RTSSmoother")
struct RTSSmootherTests {
    @Test("Smoothing noisy fixes of a straight walk beats filtering, and variances shrink")
    func smoothingBeatsFiltering() throws {
        var rng = SeededGenerator(seed: 3)
        func truth(_ t: Double) -> Point2D { Point2D(x: 2 + 1.1 * t, y: 5 + 0.3 * t) }
        func noisy(_ t: Double) -> PositionMeasurement {
            PositionMeasurement(
                time: t, position: truth(t) + Point2D(x: rng.gaussian(sigma: 1.5), y: rng.gaussian(sigma: 1.5)),
                sigma: 1.5)
        }
        var t = try KalmanTracker(first: noisy(0), configuration: TrackerConfiguration(recordsHistory: true))
        var filtered: [TrackEstimate] = [t.estimate]
        for k in 1...60 {
            try t.update(noisy(Double(k)))
            filtered.append(t.estimate)
        }
        let smoothed = try RTSSmoother().smooth(t)
        #expect(smoothed.count == filtered.count)
        func rmse(_ e: [TrackEstimate]) -> Double {
            (e.map {
                let d = $0.position.distance(to: truth($0.time))
                return d * d
            }.reduce(0, +) / Double(e.count)).squareRoot()
        }
        print(String(format: "RTS test: filtered %.3f m, smoothed %.3f m", rmse(filtered), rmse(smoothed)))
        #expect(rmse(smoothed) < 0.8 * rmse(filtered))
        // The last smoothed step is the filtered one; earlier variances never exceed the filtered.
        #expect(smoothed.last == filtered.last)
        for (s, f) in zip(smoothed, filtered) { #expect(s.accuracy <= f.accuracy + 1e-9) }
    }

    @Test("A reset starts a new segment: nothing is smoothed across it")
    func segments() throws {
        var t = try KalmanTracker(
            first: PositionMeasurement(time: 0, position: Point2D(x: 1, y: 1), sigma: 0.5),
            configuration: TrackerConfiguration(recordsHistory: true))
        try t.update(PositionMeasurement(time: 1, position: Point2D(x: 1, y: 1), sigma: 0.5))
        try t.reset(to: PositionMeasurement(time: 2, position: Point2D(x: 20, y: 10), sigma: 0.5))
        try t.update(PositionMeasurement(time: 3, position: Point2D(x: 20, y: 10), sigma: 0.5))
        let smoothed = try RTSSmoother().smooth(t)
        #expect(smoothed.count == 4)
        #expect(smoothed[1].position.distance(to: Point2D(x: 1, y: 1)) < 1e-9)
        #expect(throws: TrackingError.emptyHistory) { try RTSSmoother().smooth([]) }
    }
}
