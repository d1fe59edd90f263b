import Foundation
import IndoorPositioning
import TestSupport
import Testing

@Suite("The devices' offset spread learned from traffic (an empirical-Bayes prior)")
struct DeviceOffsetSpreadTests {
    /// Sums as `DeviceEffects` forms them for devices with true offsets drawn from N(0, τ²),
    /// each heard `samples` times with σ dB of noise: Σ rᵢ/σ² and Σ 1/σ².
    func devices(
        count: Int, tau: Double, sigma: Double, samples: Int, seed: UInt64
    ) -> (sums: [Double], weights: [Double]) {
        var rng = SeededGenerator(seed: seed)
        var sums: [Double] = [], weights: [Double] = []
        for _ in 0..<count {
            let offset = rng.gaussian(sigma: tau)
            var sum = 0.0
            for _ in 0..<samples { sum += (offset + rng.gaussian(sigma: sigma)) / (sigma * sigma) }
            sums.append(sum)
            weights.append(Double(samples) / (sigma * sigma))
        }
        return (sums, weights)
    }

    @Test(
        "1,500 single scans of 6 beacons, offsets spread 4 dB, noise 5 dB: τ̂ within 6 %, the prior within 3 % above it")
    func manyScans() throws {
        // Each scan's mean has variance 25/6 dB², as large as a quarter of τ²: the method of moments
        // takes it out. The relative standard error of τ̂² is √(2/M)(τ² + v)/τ² ≈ 4.8 %, so τ̂'s
        // is about 2.4 %; 6 % is 2.5 of them.
        for seed: UInt64 in 1...4 {
            let d = devices(count: 1500, tau: 4, sigma: 5, samples: 6, seed: seed)
            let spread = try #require(DeviceOffsetSpread(sums: d.sums, weights: d.weights))
            #expect(spread.devices == 1500)
            #expect(abs(spread.estimate - 4) < 0.06 * 4, "seed \(seed): τ̂ \(spread.estimate)")
            #expect(spread.sigma >= spread.estimate && spread.sigma < 1.03 * spread.estimate + 0.1)
        }
    }

    @Test("nine walks of one phone (offsets alike within 0.5 dB, 1,500 samples each): a prior below 1.5 dB")
    func samePhone() throws {
        let d = devices(count: 9, tau: 0.5, sigma: 5, samples: 1500, seed: 9)
        let spread = try #require(DeviceOffsetSpread(sums: d.sums, weights: d.weights))
        #expect(spread.sigma < 1.5)
        #expect(spread.sigma > spread.estimate)
    }

    @Test(
        "fewer than two devices heard, or none with samples: no spread; identical devices: the floor; a huge spread: the uncalibrated prior"
    )
    func edges() {
        #expect(DeviceOffsetSpread(sums: [], weights: []) == nil)
        #expect(DeviceOffsetSpread(sums: [4], weights: [2]) == nil)
        #expect(DeviceOffsetSpread(sums: [4, 1, 0], weights: [2, 0, 0]) == nil)
        #expect(DeviceOffsetSpread(sums: [.nan, 1, 2], weights: [1, 1, .infinity]) == nil)
        let same = DeviceOffsetSpread(sums: [2, 2, 2], weights: [1e12, 1e12, 1e12])
        #expect(same?.sigma == DeviceOffsetSpread.minimumSigma)
        #expect(same?.devices == 3)
        // Devices 60 dB apart: the estimate says so, the prior stops at the uncalibrated one's.
        let wide = devices(count: 50, tau: 60, sigma: 5, samples: 20, seed: 3)
        let spread = DeviceOffsetSpread(sums: wide.sums, weights: wide.weights)
        #expect((spread?.estimate ?? 0) > 40)
        #expect(spread?.sigma == 10)
    }
}
