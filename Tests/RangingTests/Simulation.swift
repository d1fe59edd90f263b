import Foundation
import TestSupport

@testable import Ranging

/// Seeded calibration data from a known model.
enum Simulation {
    /// `count` samples at distances log-uniform in `range` (metres) with Gaussian shadowing;
    /// a share `outlierShare` of them gets an extra attenuation of 20–35 dB (a body in the way).
    static func samples(
        model: PathLossModel, count: Int, range: ClosedRange<Double> = 0.5...15,
        outlierShare: Double = 0, seed: UInt64
    ) -> [CalibrationSample] {
        var rng = SeededGenerator(seed: seed)
        let lo = Foundation.log(range.lowerBound), hi = Foundation.log(range.upperBound)
        return (0..<count).map { _ in
            let d = Foundation.exp(Double.random(in: lo...hi, using: &rng))
            var rssi = model.expectedRSSI(atDistance: d) + rng.gaussian(sigma: model.sigma)
            if Double.random(in: 0..<1, using: &rng) < outlierShare {
                rssi -= Double.random(in: 20...35, using: &rng)
            }
            return CalibrationSample(distance: d, rssi: rssi)
        }
    }
}
