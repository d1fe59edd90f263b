import Foundation
import LinearAlgebra
import Testing

@testable import Ranging

/// The one implementation of the standard-normal and χ² quantiles, against published values
/// (as SciPy's norm.ppf and chi2.ppf print them) and against bisection on erfc.
@Suite("Statistics: normal and χ² quantiles")
struct StatisticsTests {
    /// Φ⁻¹ by bisection on erfc to 1e-13: slow but plainly right, the reference.
    static func bisection(_ p: Double) -> Double {
        var lo = -40.0, hi = 40.0
        for _ in 0..<200 {
            let mid = (lo + hi) / 2
            if 0.5 * erfc(-mid / 2.0.squareRoot()) < p { lo = mid } else { hi = mid }
            if hi - lo < 1e-13 { break }
        }
        return (lo + hi) / 2
    }

    @Test("Φ⁻¹ matches known quantiles to 1e-12")
    func knownNormalQuantiles() {
        let known: [(Double, Double)] = [
            (0.5, 0), (0.975, 1.959963984540054), (0.999, 3.090232306167813),
            (0.01, -2.326347874040841), (0.8413447460685429, 1), (1e-10, -6.361340902404056),
            (0.999999999999, 7.0344869100478356),
            (0.02425, -1.972961051311885), (0.97575, 1.972961051311885)
        ]
        for (p, z) in known {
            #expect(abs(StandardNormal.quantile(p) - z) < 1e-12, "Φ⁻¹(\(p))")
        }
        #expect(abs(StandardNormal.upperQuantile(0.01) - 2.326347874040841) < 1e-12)
    }

    @Test("Φ⁻¹ agrees with bisection on erfc across (0, 1), both tails")
    func agreesWithBisection() {
        var p = 1e-12
        while p < 0.5 {
            #expect(abs(StandardNormal.quantile(p) - Self.bisection(p)) < 1e-11, "p = \(p)")
            // Bisection near 1 is limited by Φ's rounding there; compare with the exact complement.
            let upper = 1 - p
            #expect(abs(StandardNormal.quantile(upper) + Self.bisection(1 - upper)) < 1e-11, "p = 1 − \(p)")
            p *= 1.7
        }
    }

    @Test("Φ⁻¹ stays finite at and beyond the ends")
    func ends() {
        for p in [0, -1, 1, 2, Double.leastNonzeroMagnitude] {
            #expect(StandardNormal.quantile(p).isFinite, "p = \(p)")
        }
        #expect(StandardNormal.quantile(0) < -37 && StandardNormal.quantile(1) > 8)
    }

    @Test("χ² quantiles: exact for 1 and 2 degrees of freedom, Wilson–Hilferty within 3 % of tables")
    func chiSquare() {
        #expect(abs(ChiSquare.quantile1(0.999) - 10.827566170662733) < 1e-9)
        #expect(abs(ChiSquare.quantile1(0.95) - 3.841458820694124) < 1e-10)
        #expect(abs(ChiSquare.quantile2(0.95) - 5.991464547107979) < 1e-12)
        #expect(abs(ChiSquare.quantile2(0.999) - 13.81551055796427) < 1e-10)
        // Upper 1 % quantiles: χ²(1) 6.635, χ²(5) 15.086, χ²(6) 16.812, χ²(20) 37.566.
        for (k, table) in [(1, 6.635), (5, 15.086), (6, 16.812), (20, 37.566)] {
            #expect(abs(ChiSquare.upperQuantile(significance: 0.01, degrees: k) / table - 1) < 0.03)
        }
        #expect(
            ChiSquare.upperQuantile(significance: 0.01, degrees: 0)
                == ChiSquare.upperQuantile(significance: 0.01, degrees: 1))
    }
}
