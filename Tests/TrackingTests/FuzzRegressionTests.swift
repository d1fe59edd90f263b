import BeaconModel
import Foundation
import LinearAlgebra
import Ranging
import TestSupport
import Testing

@testable import Tracking

/// Inputs the fuzzer (Fuzz/FuzzTracker) found, kept as tests: an extreme model no longer
/// collapses the covariance, and an update that would leave it not positive-definite throws.
@Suite("Tracker: fuzzer findings")
struct TrackerFuzzRegressionTests {
    static func tracker() throws -> KalmanTracker {
        try KalmanTracker(first: PositionMeasurement(time: 0, position: Point2D(x: 5, y: 5), sigma: 2))
    }

    @Test("a path-loss model with σ = 1e-180 dB (which collapsed P to 1e-175 m²) is an invalid model")
    func tinySigma() throws {
        var tracker = try Self.tracker()
        let model = PathLossModel(measuredPower: -59, exponent: 2, sigma: 1e-180)
        let sample = RSSIMeasurement(time: 1, beaconPosition: Point3D(x: 0, y: 0, z: 2), model: model, rssi: -65)
        #expect(throws: TrackingError.invalidPathLossModel(model)) { try tracker.update(sample) }
        #expect(throws: TrackingError.invalidPathLossModel(model)) { try tracker.update([sample], at: 1) }
        let p = tracker.covariance
        #expect(p[0, 0] > 0 && p[1, 1] > 0 && p[0, 0] * p[1, 1] > p[0, 1] * p[1, 0])
    }

    @Test("commit refuses a covariance that is not positive-definite and keeps the state")
    func commitRefusesCollapse() throws {
        var tracker = try Self.tracker()
        let before = tracker.covariance
        let collapsed = Matrix4(
            Vector4(2.543598777707715e-175, 6.338194612149914e-176, 0, 0),
            Vector4(6.338194612149914e-176, 1.5793650827938261e-176, 0, 0),
            Vector4(0, 0, 0.64, 0), Vector4(0, 0, 0, 0.64))
        #expect(throws: TrackingError.covarianceNotPositiveDefinite) {
            try tracker.commit(Vector4(1, 1, 0, 0), collapsed)
        }
        #expect(throws: TrackingError.covarianceNotPositiveDefinite) {
            try tracker.commit(Vector4(1, 1, 0, 0), .diagonal(Vector4(1, 1, 0, 1)))
        }
        #expect(tracker.covariance == before)
        #expect(tracker.state[0] == 5 && tracker.state[1] == 5)
    }
}
