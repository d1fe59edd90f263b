import Foundation
import Testing

@testable import Ranging

@Suite("Path-loss model uncertainty")
struct PathLossUncertaintyTests {
    @Test("the prediction's variance σ_P² + L² σ_n² − 2 L ρ σ_P σ_n, L = 10 log₁₀ d; at 1 m it is σ_P²")
    func variance() {
        let u = PathLossUncertainty(measuredPowerSigma: 2, exponentSigma: 0.3, correlation: 0.8)
        #expect(abs(u.variance(atDistance: 1) - 4) < 1e-12)
        let l = 10 * log10(5.0)
        #expect(abs(u.variance(atDistance: 5) - (4 + l * l * 0.09 - 2 * l * 0.8 * 2 * 0.3)) < 1e-12)
        // Fully correlated errors cancel where L σ_n = σ_P: a distance where the model is exact.
        let exact = PathLossUncertainty(measuredPowerSigma: 3, exponentSigma: 0.3, correlation: 1)
        #expect(exact.variance(atDistance: 10) < 1e-9)
        // Uncorrelated: never below σ_P².
        let loose = PathLossUncertainty(measuredPowerSigma: 3, exponentSigma: 0.3)
        for d in [0.5, 1, 2, 8, 30] { #expect(loose.variance(atDistance: d) >= 9) }
    }

    @Test(
        "bad parts are cleaned, never a NaN: negative or non-finite deviations count as 0, the correlation is clamped")
    func badParts() {
        let u = PathLossUncertainty(measuredPowerSigma: -1, exponentSigma: .nan, correlation: 7)
        #expect(u.measuredPowerSigma == 0 && u.exponentSigma == 0 && u.correlation == 1)
        #expect(u.variance(atDistance: .infinity) == 0)
        let v = PathLossUncertainty(measuredPowerSigma: 1, exponentSigma: 1, correlation: .infinity)
        #expect(v.correlation == 0)
        #expect(v.variance(atDistance: -3).isFinite)
    }
}
