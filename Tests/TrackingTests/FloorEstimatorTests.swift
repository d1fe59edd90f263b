import Foundation
import TestSupport
import Testing

@testable import Tracking

@Suite("FloorEstimator")
struct FloorEstimatorTests {
    @Test("Alternating noisy evidence on the stairs does not flap")
    func noFlapping() throws {
        var f = try FloorEstimator()
        var rng = SeededGenerator(seed: 9)
        var changes = 0
        for k in 0..<120 {
            // Both floors heard about equally, each score noisy by ±4 dB, the lead alternating.
            let lead = k.isMultiple(of: 2) ? 3.0 : -3.0
            let d = try f.update(
                time: Double(k),
                evidence: [
                    0: -70 + lead + rng.gaussian(sigma: 2),
                    1: -70 - lead + rng.gaussian(sigma: 2)
                ])
            if d.changed { changes += 1 }
        }
        #expect(changes == 1)  // the first choice only
    }

    @Test("A sustained change switches after the dwell time, not before")
    func switchesOnSustainedChange() throws {
        var f = try FloorEstimator(configuration: .init(margin: 5, dwellTime: 2.5))
        for k in 0..<5 { try f.update(time: Double(k), evidence: [0: -65, 1: -80]) }
        #expect(f.level == 0)
        var switchedAt: Double?
        for k in 5..<15 {
            let d = try f.update(time: Double(k), evidence: [0: -82, 1: -66])
            if d.changed, switchedAt == nil { switchedAt = Double(k) }
        }
        #expect(f.level == 1)
        #expect(switchedAt == 8)  // challenger wins from 5 s; 8 − 5 ≥ 2.5 s
        // A current level that is no longer heard at all loses after the dwell time too.
        for k in 15..<20 { try f.update(time: Double(k), evidence: [2: -70]) }
        #expect(f.level == 2)
    }

    @Test("Bad evidence is a typed error; no evidence changes nothing; scores from RSSI")
    func badInput() throws {
        var f = try FloorEstimator()
        try f.update(time: 1, evidence: [0: -60])
        #expect(throws: TrackingError.nonFiniteInput(field: "FloorEstimator.evidence")) {
            try f.update(time: 2, evidence: [1: .nan])
        }
        #expect(throws: TrackingError.timestampBeforeState(time: 0.5, stateTime: 1)) {
            try f.update(time: 0.5, evidence: [0: -60])
        }
        #expect(try f.update(time: 3, evidence: [:]) == FloorEstimator.Decision(level: 0, changed: false))
        #expect(FloorEstimator.score(rssi: [-80, -60, -70, -90, .nan]) == -70)
        #expect(FloorEstimator.score(rssi: []) == -.infinity)
        #expect(throws: TrackingError.invalidConfiguration(field: "FloorEstimator.dwellTime", value: -1)) {
            _ = try FloorEstimator(configuration: .init(dwellTime: -1))
        }
    }
}
