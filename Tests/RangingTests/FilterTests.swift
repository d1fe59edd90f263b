import Foundation
import TestSupport
import Testing

@testable import Ranging

/// Runs `filter` over a noisy RSSI ramp of `slope` dB/s sampled every `interval` s ± `jitter`
/// (fraction) for 600 s; returns the settled lag (s) and the output noise over the input noise.
func rampResponse<F: RSSIFilter>(
    _ filter: F, interval: Double, jitter: Double, noise: Double,
    seed: UInt64
) throws -> (lag: Double, noiseRatio: Double) {
    var filter = filter
    var rng = SeededGenerator(seed: seed)
    let slope = -2.0
    var t = 0.0
    var errors: [Double] = []
    while t < 600 {
        let truth = -50 + slope * t
        let output = try filter.update(rssi: truth + rng.gaussian(sigma: noise), at: t)
        #expect(output.isFinite)
        if t > 20 { errors.append(output - truth) }
        t += interval * (1 + Double.random(in: -jitter...jitter, using: &rng))
    }
    let mean = errors.reduce(0, +) / Double(errors.count)
    let variance = errors.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(errors.count)
    return (mean / -slope, noise > 0 ? variance.squareRoot() / noise : 0)
}

@Suite("RSSI filters")
struct FilterTests {
    static let defaults: [any RSSIFilter] = [WindowedMeanFilter(), ExponentialFilter(), RSSIKalmanFilter()]

    @Test(
        "on a ramp at 5 Hz with ±50 % jittered times, lag and noise match the documented figures",
        arguments: FilterTests.defaults)
    func rampLagAndNoise(filter: any RSSIFilter) throws {
        let lag = try rampResponse(filter, interval: 0.2, jitter: 0.5, noise: 0, seed: 1).lag
        let predictedLag = filter.rampLag(sampleInterval: 0.2)
        #expect(abs(lag / predictedLag - 1) < 0.1, "lag \(lag) s, documented \(predictedLag) s")
        // Defaults are chosen for a walking person: at most 1 s, 1.2 m at 1.2 m/s.
        #expect(lag < 1.1 && lag > 0.5)
        let ratio = try rampResponse(filter, interval: 0.2, jitter: 0.5, noise: 4, seed: 2).noiseRatio
        let predictedRatio = filter.noiseReduction(sampleInterval: 0.2)
        #expect(abs(ratio / predictedRatio - 1) < 0.1, "noise ratio \(ratio), documented \(predictedRatio)")
        #expect(ratio < 0.4)
    }

    @Test("regular samples: exponential and Kalman lags are exactly T(1 − K)/K")
    func exactLags() throws {
        for filter in [
            ExponentialFilter(timeConstant: 2) as any RSSIFilter,
            RSSIKalmanFilter(processNoise: 1, measurementVariance: 9)
        ] {
            for interval in [0.1, 0.5, 1.0] {
                let lag = try rampResponse(filter, interval: interval, jitter: 0, noise: 0, seed: 3).lag
                #expect(abs(lag - filter.rampLag(sampleInterval: interval)) < 1e-3)
            }
        }
        // A 20 s window lags ≈ 10 s: 12 m at walking speed.
        let long = try rampResponse(WindowedMeanFilter(window: 20), interval: 0.2, jitter: 0, noise: 0, seed: 4).lag
        #expect(abs(long - 10) < 0.2)
    }

    @Test(
        "time going backwards, NaN and infinities are refused and leave the state untouched",
        arguments: FilterTests.defaults)
    func badInput(filter: any RSSIFilter) throws {
        var filter = filter
        var reference = filter
        _ = try filter.update(rssi: -60, at: 10)
        _ = try reference.update(rssi: -60, at: 10)
        #expect(throws: FilterInputError.timeWentBackwards(previous: 10, current: 9.5)) {
            try filter.update(rssi: -70, at: 9.5)
        }
        #expect(throws: FilterInputError.nonFiniteTime(.infinity)) { try filter.update(rssi: -70, at: .infinity) }
        #expect(throws: FilterInputError.invalidValue(-.infinity)) { try filter.update(rssi: -.infinity, at: 11) }
        #expect(throws: FilterInputError.self) { try filter.update(rssi: .nan, at: 11) }
        #expect(throws: FilterInputError.self) { try filter.update(rssi: -60, at: .nan) }
        // Equal timestamps are fine; the filter continues exactly as if nothing had been refused.
        let a = try filter.update(rssi: -66, at: 10)
        let b = try reference.update(rssi: -66, at: 10)
        #expect(a == b && a.isFinite)
        #expect(try filter.update(rssi: -70, at: 11) == (try reference.update(rssi: -70, at: 11)))
        filter.reset()
        #expect(filter.value == nil)
        #expect(try filter.update(rssi: -80, at: 0) == -80)
    }

    @Test("windowed mean: exact mean of the window, eviction by time and by capacity")
    func windowedMean() throws {
        var filter = WindowedMeanFilter(window: 1, capacity: 3)
        #expect(try filter.update(rssi: -60, at: 0) == -60)
        #expect(try filter.update(rssi: -70, at: 0.4) == -65)
        #expect(try filter.update(rssi: -80, at: 0.9) == -70)
        #expect(try filter.update(rssi: -90, at: 1.2) == -80)  // t = 0 and capacity both evict −60
        #expect(filter.sampleCount == 3)
        #expect(try filter.update(rssi: -50, at: 5) == -50)  // everything older than 1 s is gone
        #expect(filter.sampleCount == 1)
        // A long run keeps the running sum exact (compensated summation).
        var long = WindowedMeanFilter(window: 2)
        var rng = SeededGenerator(seed: 9)
        var recent: [(Double, Double)] = []
        var t = 0.0
        for _ in 0..<100_000 {
            let rssi = -70 + rng.gaussian(sigma: 8)
            let output = try long.update(rssi: rssi, at: t)
            recent.append((t, rssi))
            recent.removeAll { $0.0 <= t - 2 }
            let exact = recent.reduce(0) { $0 + $1.1 } / Double(recent.count)
            if abs(output - exact) > 1e-9 {
                Issue.record("drift \(output - exact) at \(t)")
                break
            }
            t += 0.1
            if recent.count > 40 { recent.removeFirst(recent.count - 40) }
        }
    }

    @Test("exponential filter: duplicates at one time still count; weight follows 1 − exp(−Δt/τ)")
    func exponentialWeights() throws {
        var filter = ExponentialFilter(timeConstant: 1, minimumInterval: 0.1)
        _ = try filter.update(rssi: -60, at: 0)
        let alpha = 1 - Foundation.exp(-0.5)
        #expect(abs(try filter.update(rssi: -70, at: 0.5) - (-60 - 10 * alpha)) < 1e-12)
        let before = filter.value!
        let after = try filter.update(rssi: -90, at: 0.5)
        #expect(after < before)  // not ignored
        #expect(abs(filter.weight(afterInterval: 0) - (1 - Foundation.exp(-0.1))) < 1e-15)
    }

    @Test("Kalman variance shrinks with samples and grows with q Δt while none arrive")
    func kalmanVariance() throws {
        var filter = RSSIKalmanFilter(processNoise: 2, measurementVariance: 16)
        _ = try filter.update(rssi: -60, at: 0)
        #expect(filter.variance == 16)
        for k in 1...50 { _ = try filter.update(rssi: -60, at: Double(k) * 0.2) }
        let settled = filter.variance
        // Settled posterior variance (1 − K) P⁻ with K from steadyStateGain.
        let k = filter.steadyStateGain(sampleInterval: 0.2)
        let prior = settled / (1 - k)
        #expect(abs(prior - (settled + 2 * 0.2)) < 1e-6)
        #expect(abs(filter.predictedVariance(at: 20) - (settled + 2 * 10)) < 1e-9)
        #expect(filter.predictedVariance(at: 5) == settled)  // not before the last sample
    }
}
