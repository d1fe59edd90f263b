import BeaconModel
import Foundation
import Ranging
import TestSupport
import Testing

@testable import IndoorPositioning

/// The place's shadowing as a floor of the consider term's bias variance.
@Suite("Engine: the shadowing a place keeps widens the radius of a phone that stays")
struct PlaceShadowingTests {
    @Test(
        "g(x), the variance of an exponentially correlated field's mean over x correlation lengths: 1 at 0, continuous where the series hands over, 2/x far out, never increasing"
    )
    func segmentMeanFactor() {
        #expect(PlaceShadowing.segmentMeanFactor(0) == 1)
        // The series and the closed form agree where one hands over to the other.
        let x = 1e-3
        let closed = 2 * (x - 1 + exp(-x)) / (x * x)
        #expect(abs(PlaceShadowing.segmentMeanFactor(x * (1 - 1e-12)) - closed) < 1e-6)
        // Far out, g(x) x / 2 → 1 as 1 − 1/x.
        for far in [100.0, 1000.0] {
            #expect(abs(PlaceShadowing.segmentMeanFactor(far) * far / 2 - (1 - 1 / far)) < 1e-9)
        }
        // The trapezoid rule over the double integral (1/x²)∫∫ e^{−|s−t|} ds dt, at x = 1.5.
        let n = 600, h = 1.5 / Double(n)
        var sum = 0.0
        for i in 0...n {
            for j in 0...n {
                let w = (i == 0 || i == n ? 0.5 : 1) * (j == 0 || j == n ? 0.5 : 1)
                sum += w * exp(-abs(Double(i - j)) * h)
            }
        }
        #expect(abs(sum * h * h / (1.5 * 1.5) - PlaceShadowing.segmentMeanFactor(1.5)) < 1e-4)
        var last = 1.0
        for k in 1...400 {
            let g = PlaceShadowing.segmentMeanFactor(Double(k) * 0.05)
            #expect(g <= last && g > 0)
            last = g
        }
        let place = PlaceShadowing(variance: 16)
        #expect(place.biasVariance(speed: 0, over: 5) == 16)
        #expect(abs(place.biasVariance(speed: 1, over: 5) - 16 * PlaceShadowing.segmentMeanFactor(2.5)) < 1e-12)
        #expect(place.biasVariance(speed: .nan, over: 5) == 0)
        #expect(place.biasVariance(speed: -1, over: 5) == 0)
        #expect(PlaceShadowing(variance: 0).biasVariance(speed: 0, over: 5) == 0)
    }

    @Test(
        "on a walk that follows its models, a place variance of 16 dB² widens tracked radii (never narrows one), moves no position, and is refused outside 0...900 dB²"
    )
    func widensRadius() throws {
        let site = try EngineMisfitRadiusTests.misfitSite(seed: 2, spread: 0)
        let plain = PositioningEngine.Configuration()
        var placed = plain
        placed.placeShadowingVariance = 16
        let before = try PositioningEngine.locate(site.samples, plan: site.plan, configuration: plain)
        let after = try PositioningEngine.locate(site.samples, plan: site.plan, configuration: placed)
        #expect(before.map(\.position) == after.map(\.position))
        let pairs = zip(before, after).filter { $0.0.source == .tracked }
        #expect(pairs.count > 100)
        #expect(pairs.allSatisfy { $0.1.accuracy >= $0.0.accuracy && $0.1.accuracy.isFinite })
        #expect(pairs.filter { $0.1.accuracy > $0.0.accuracy * 1.05 }.count > pairs.count / 2)
        for bad in [-1.0, 901, .nan, .infinity] {
            var configuration = plain
            configuration.placeShadowingVariance = bad
            #expect(throws: PositioningError.self) { try configuration.validate() }
        }
    }
}
