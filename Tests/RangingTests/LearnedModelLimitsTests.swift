import BeaconModel
import Foundation
import TestSupport
import Testing

@testable import Ranging

/// A learned model stays physical whatever the traffic: the exponent within
/// `SiteCalibrator.exponentLimits`, P₀ within three prior σ of the prior, σ at least
/// `SiteCalibrator.minimumSigma`; the limits are constraints of the fit (its constrained
/// optimum), not a clamp after it.
@Suite("Learned path-loss models within physical limits")
struct LearnedModelLimitsTests {
    static let beacon = BeaconIdentity(
        uuid: UUID(uuidString: "F7826DA6-4FA2-4E98-8024-BC5B71E0893E")!, major: 1, minor: 1)
    static let position = Point3D(x: 0, y: 0, z: 2.5)

    func learn(
        _ samples: [(distance: Double, rssi: Double)],
        prior: PathLossPrior = PathLossPrior(centredOn: PathLossModel(measuredPower: -59, exponent: 2))
    ) throws -> LearnedPathLoss {
        var c = SiteCalibrator(beacons: [(Self.beacon, Self.position, prior)], settings: .init())
        for s in samples {
            let receiver = Point3D(x: (s.distance * s.distance - 1.3 * 1.3).squareRoot(), y: 0, z: 1.2)
            c.observe(Self.beacon, rssi: s.rssi, receiver: receiver, xx: 0, xy: 0, yy: 0, deviceOffset: 0)
        }
        return try #require(c.estimates.first)
    }

    @Test("RSSI that rises with distance (traffic from another building) learns n at the lower limit, not below")
    func risingWithDistance() throws {
        var rng = SeededGenerator(seed: 7)
        var samples: [(distance: Double, rssi: Double)] = []
        for _ in 0..<3000 {
            let d = Double.random(in: 2...12, using: &rng)
            samples.append((d, -80 + 1.5 * d + rng.gaussian(sigma: 3)))
        }
        let e = try learn(samples)
        #expect(e.source == .traffic)
        #expect(e.model.exponent == SiteCalibrator.exponentLimits.lowerBound)
        #expect(abs(e.model.measuredPower - -59) <= 24 + 1e-9)
    }

    @Test("readings at two static points, 14 dB from the plan, keep P₀ within 3 prior σ and n within the limits")
    func staticPoints() throws {
        var rng = SeededGenerator(seed: 8)
        var samples: [(distance: Double, rssi: Double)] = []
        for _ in 0..<2000 {
            let d = Bool.random(using: &rng) ? 3.0 : 3.4
            samples.append((d, -90 + rng.gaussian(sigma: 4)))
        }
        let e = try learn(samples)
        #expect(SiteCalibrator.exponentLimits.contains(e.model.exponent))
        #expect(abs(e.model.measuredPower - -59) <= 24 + 1e-9)
        #expect(e.model.sigma >= SiteCalibrator.minimumSigma)
    }

    @Test("noise-free readings learn σ at the floor of 0.5 dB, never 0")
    func sigmaFloor() throws {
        let model = PathLossModel(measuredPower: -60, exponent: 2.2, sigma: 4)
        let samples = stride(from: 1.5, through: 15, by: 0.05).map { ($0, model.expectedRSSI(atDistance: $0)) }
        // Without the prior's pseudo-samples of σ, the fit alone would give σ = 0.
        let e = try learn(samples, prior: PathLossPrior(measuredPower: -59, exponent: 2, sigmaWeight: 0))
        #expect(e.model.sigma == SiteCalibrator.minimumSigma)
        #expect(abs(e.model.exponent - 2.2) < 0.01)
    }

    @Test("the constrained mode equals a brute-force search over the box for random problems")
    func constrainedModeIsTheBoxOptimum() {
        var rng = SeededGenerator(seed: 9)
        for _ in 0..<100 {
            // H = LLᵀ + εI positive definite; r anywhere.
            let l00 = Double.random(in: 0.1...3, using: &rng), l10 = Double.random(in: -3...3, using: &rng)
            let l11 = Double.random(in: 0.1...3, using: &rng)
            let a = l00 * l00 + 1e-3, b = l00 * l10, c = l10 * l10 + l11 * l11 + 1e-3
            let r0 = Double.random(in: -200...200, using: &rng), r1 = Double.random(in: -200...200, using: &rng)
            let powers = -83.0...(-35.0), exponents = SiteCalibrator.exponentLimits
            let (p, n) = SiteCalibrator.constrainedMode(
                a: a, b: b, c: c, r0: r0, r1: r1, powers: powers, exponents: exponents)
            #expect(powers.contains(p) && exponents.contains(n))
            func f(_ p: Double, _ n: Double) -> Double {
                0.5 * (a * p * p + 2 * b * p * n + c * n * n) - r0 * p - r1 * n
            }
            var best = Double.infinity
            for i in 0...120 {
                for j in 0...120 {
                    let pp = powers.lowerBound + Double(i) / 120 * (powers.upperBound - powers.lowerBound)
                    let nn = exponents.lowerBound + Double(j) / 120 * (exponents.upperBound - exponents.lowerBound)
                    best = min(best, f(pp, nn))
                }
            }
            // The grid's best can only be as good as the exact constrained optimum.
            #expect(f(p, n) <= best + 1e-9 * max(1, abs(best)))
        }
    }
}
