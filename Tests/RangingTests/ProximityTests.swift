import Foundation
import TestSupport
import Testing

@testable import Ranging

@Suite("Proximity classes with hysteresis")
struct ProximityTests {
    let model = PathLossModel(measuredPower: -59, exponent: 2, sigma: 4)

    /// Classifies a phone standing still at `distance` for 600 s, 5 Hz ± 50 % jitter, σ = 4 dB,
    /// Kalman-filtered; returns (class changes with hysteresis, changes without, shortest hold).
    func standStill(at distance: Double, seed: UInt64) throws -> (hysteresis: Int, naive: Int, shortestHold: Double) {
        var rng = SeededGenerator(seed: seed)
        var filter = RSSIKalmanFilter()
        var classifier = ProximityClassifier()
        var t = 0.0
        var changes = 0, naiveChanges = 0
        var last = Proximity.unknown, lastNaive = Proximity.unknown
        var lastChange = 0.0, shortest = Double.infinity
        while t < 600 {
            let rssi = model.expectedRSSI(atDistance: distance) + rng.gaussian(sigma: 4)
            let smoothed = try filter.update(rssi: rssi, at: t)
            let d = model.medianDistance(forRSSI: smoothed)
            let current = try classifier.update(distance: d, at: t)
            let naive = Proximity(distance: d)
            if current != last {
                if last != .unknown {
                    changes += 1
                    shortest = min(shortest, t - lastChange)
                }
                lastChange = t
                last = current
            }
            if naive != lastNaive {
                if lastNaive != .unknown { naiveChanges += 1 }
                lastNaive = naive
            }
            t += 0.2 * (1 + Double.random(in: -0.5...0.5, using: &rng))
        }
        return (changes, naiveChanges, shortest)
    }

    @Test("a phone standing on the near/far boundary does not flap", arguments: [UInt64(1), 2, 3])
    func noFlapping(seed: UInt64) throws {
        let run = try standStill(at: 3.0, seed: seed)
        #expect(run.naive > 100, "without hysteresis: \(run.naive) changes")
        #expect(run.hysteresis <= run.naive / 20, "with hysteresis: \(run.hysteresis) changes, without \(run.naive)")
        #expect(run.shortestHold >= 1.0 || run.hysteresis == 0)
    }

    @Test("clear of the boundary the class is steady and right")
    func steadyAway() throws {
        #expect(try standStill(at: 1.5, seed: 4).hysteresis == 0)
        #expect(try standStill(at: 8, seed: 5).hysteresis <= 2)
    }

    @Test("walking in from 6 m to 0.2 m goes far → near → immediate without reversal")
    func approach() throws {
        var classifier = ProximityClassifier()
        var seen: [Proximity] = []
        var t = 0.0
        while t <= 7 {
            let d = max(0.2, 6 - (5.8 / 5) * t)  // 1.16 m/s, then stands at 0.2 m
            let p = try classifier.update(distance: d, at: t)
            if seen.last != p { seen.append(p) }
            t += 0.1
        }
        #expect(seen == [.far, .near, .immediate])
    }

    @Test("hysteresis: a boundary is crossed only beyond the ratio, after the dwell")
    func hysteresisRules() throws {
        var c = ProximityClassifier(thresholds: ProximityThresholds(near: 3, hysteresisRatio: 1.25, dwell: 1))
        #expect(try c.update(distance: 2.0, at: 0) == .near)  // first class at once
        #expect(try c.update(distance: 3.5, at: 1) == .near)  // 3.5 < 3 × 1.25
        #expect(try c.update(distance: 3.9, at: 2) == .near)  // candidate far from t = 2
        #expect(try c.update(distance: 3.9, at: 2.5) == .near)  // dwell not over
        #expect(try c.update(distance: 3.9, at: 3.0) == .far)  // held 1 s
        #expect(try c.update(distance: 2.7, at: 4) == .far)  // 2.7 > 3 / 1.25
        #expect(try c.update(distance: 2.3, at: 5) == .far)
        #expect(try c.update(distance: 3.5, at: 5.5) == .far)  // candidate interrupted
        #expect(try c.update(distance: 2.3, at: 6) == .far)
        #expect(try c.update(distance: 2.3, at: 7) == .near)
    }

    @Test("no reading for longer than the timeout gives unknown; bad input is refused")
    func timeoutAndBadInput() throws {
        var c = ProximityClassifier()
        #expect(try c.update(distance: nil, at: 0) == .unknown)
        #expect(try c.update(distance: 0.3, at: 1) == .immediate)
        #expect(try c.update(distance: nil, at: 5.9) == .immediate)
        #expect(try c.update(distance: nil, at: 6.1) == .unknown)
        #expect(throws: FilterInputError.timeWentBackwards(previous: 6.1, current: 2)) {
            try c.update(distance: 1, at: 2)
        }
        #expect(throws: FilterInputError.invalidValue(-1)) { try c.update(distance: -1, at: 7) }
        #expect(throws: FilterInputError.self) { try c.update(distance: .nan, at: 7) }
        #expect(throws: FilterInputError.nonFiniteTime(.infinity)) { try c.update(distance: 1, at: .infinity) }
        #expect(c.proximity == .unknown)
        #expect(Proximity(distance: .nan) == .unknown)
        #expect(
            Proximity(distance: 0.2) == .immediate && Proximity(distance: 2) == .near && Proximity(distance: 9) == .far)
        // Invalid thresholds fall back to the documented defaults.
        let t = ProximityThresholds(immediate: 5, near: 1, hysteresisRatio: 0.5, dwell: -1, timeout: .nan)
        #expect(t == ProximityThresholds())
    }
}
