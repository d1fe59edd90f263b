import BeaconModel
import Foundation
import Ranging
import TestSupport
import Testing

@testable import Tracking

/// The tracker learns how much more an RSSI sample scatters than the path-loss model's σ says.
@Suite("Kalman tracker noise scale")
struct NoiseScaleTests {
    static let beacons = [
        Point3D(x: 0, y: 0, z: 2.6), Point3D(x: 20, y: 0, z: 2.6),
        Point3D(x: 20, y: 15, z: 2.6), Point3D(x: 0, y: 15, z: 2.6)
    ]

    /// A phone standing at (8, 6) heard with `trueSigma` dB of noise by a tracker told `modelSigma`.
    static func learnedScale(trueSigma: Double, modelSigma: Double, maximum: Double = 4) throws -> Double {
        var configuration = TrackerConfiguration()
        configuration.maximumNoiseScale = maximum
        var tracker = try KalmanTracker(
            first: PositionMeasurement(time: 0, position: Point2D(x: 8, y: 6), sigma: 1),
            configuration: configuration)
        let truth = Point3D(x: 8, y: 6, z: 1.2)
        let truthModel = PathLossModel(measuredPower: -59, exponent: 2, sigma: trueSigma)
        let told = PathLossModel(measuredPower: -59, exponent: 2, sigma: modelSigma)
        var g = SeededGenerator(seed: 5)
        var t = 0.0
        for _ in 0..<3000 {
            t += 0.03
            let b = beacons[Int(t * 100) % beacons.count]
            let rssi = truthModel.expectedRSSI(atDistance: truth.distance(to: b)) + g.gaussian(sigma: trueSigma)
            try tracker.update(RSSIMeasurement(time: t, beaconPosition: b, model: told, rssi: rssi))
        }
        return tracker.noiseScale
    }

    @Test("when the model's σ is right, the scale stays near 1")
    func consistent() throws {
        let scale = try Self.learnedScale(trueSigma: 4, modelSigma: 4)
        #expect(scale >= 1 && scale < 1.25)
    }

    @Test("when the samples scatter 6 dB but the model says 4 dB, the scale approaches (6/4)² = 2.25")
    func understated() throws {
        let scale = try Self.learnedScale(trueSigma: 6, modelSigma: 4)
        #expect(abs(scale - 2.25) < 0.45)
    }

    @Test("the scale never exceeds its maximum, and a maximum of 1 turns learning off")
    func bounded() throws {
        #expect(try Self.learnedScale(trueSigma: 12, modelSigma: 4) <= 4)
        #expect(try Self.learnedScale(trueSigma: 8, modelSigma: 4, maximum: 1) == 1)
        #expect(throws: TrackingError.self) {
            try TrackerConfiguration(maximumNoiseScale: 0.5).validate()
        }
    }
}
