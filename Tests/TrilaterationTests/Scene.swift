import BeaconModel
import Foundation
import Ranging
import TestSupport
import Trilateration

/// The test room: 24 × 16 m, 8 beacons on the walls at 2.6 m, receiver at 1.2 m, P₀ = −59 dBm,
/// n = 2, σ = 4 dB.
enum Scene {
    static let model = PathLossModel(measuredPower: -59, exponent: 2, sigma: 4)
    static let receiverHeight = 1.2
    static let anchors: [Point3D] = [
        (0.5, 0.5), (12, 0.3), (23.5, 0.5), (23.7, 8),
        (23.5, 15.5), (12, 15.7), (0.5, 15.5), (0.3, 8)
    ]
    .map { Point3D(x: $0.0, y: $0.1, z: 2.6) }
    static let outline = Polygon([
        Point2D(x: 0, y: 0), Point2D(x: 24, y: 0),
        Point2D(x: 24, y: 16), Point2D(x: 0, y: 16)
    ])

    static func identity(_ k: Int) -> BeaconIdentity {
        BeaconIdentity(
            uuid: UUID(uuid: (0xE2, 0xC5, 0x6D, 0xB5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1)),
            major: 1, minor: UInt16(k))
    }

    /// Observations at `truth` of beacons whose plan positions are `planned` but which really
    /// stand at `actual` (default: where planned), each the mean of `count` samples with
    /// shadowing σ drawn from `generator` (nil: noise-free).
    static func observe(
        at truth: Point3D, planned: [Point3D] = anchors, actual: [Point3D]? = nil,
        count: Int = 4, model: PathLossModel = Scene.model,
        generator: inout SeededGenerator?
    ) -> [BeaconObservation] {
        let real = actual ?? planned
        return planned.indices.map { k in
            let d = truth.distance(to: real[k])
            var sum = 0.0
            for _ in 0..<count {
                sum += model.expectedRSSI(atDistance: d) + (generator?.gaussian(sigma: model.sigma) ?? 0)
            }
            return BeaconObservation(
                identity: identity(k), position: planned[k], level: 0, model: model,
                meanRSSI: min(sum / Double(count), 0), count: count)
        }
    }

    static func noiseFree(at truth: Point3D, planned: [Point3D] = anchors) -> [BeaconObservation] {
        var none: SeededGenerator? = nil
        return observe(at: truth, planned: planned, generator: &none)
    }

    /// A random receiver position inside the room, 1 m from the walls.
    static func randomPoint(_ g: inout SeededGenerator) -> Point3D {
        Point3D(x: Double.random(in: 1...23, using: &g), y: Double.random(in: 1...15, using: &g), z: receiverHeight)
    }

    /// The mean of `points` under weights e^`logs`, and their mean squared distance from it
    /// (the trace of the covariance): a posterior's first two moments on a grid of points.
    static func moments(logs: [Double], points: [(Double, Double)]) -> (mean: Point2D, spread: Double) {
        let best = logs.max()!
        var mass = 0.0, sx = 0.0, sy = 0.0, sxx = 0.0
        for (k, l) in logs.enumerated() {
            let w = exp(l - best)
            mass += w
            sx += w * points[k].0
            sy += w * points[k].1
            sxx += w * (points[k].0 * points[k].0 + points[k].1 * points[k].1)
        }
        let mean = Point2D(x: sx / mass, y: sy / mass)
        return (mean, sxx / mass - mean.x * mean.x - mean.y * mean.y)
    }

    static func horizontalError(_ fix: Fix, _ truth: Point3D) -> Double {
        fix.position.planar.distance(to: truth.planar)
    }
}
