import Foundation

/// Quantiles of the χ² distribution for the outlier tests and gates (see ``StandardNormal``).
package enum ChiSquare {
    /// The p-quantile with 1 degree of freedom: z², z = Φ⁻¹((1 + p)/2) (exact up to Φ⁻¹'s error).
    package static func quantile1(_ p: Double) -> Double {
        let z = StandardNormal.quantile((1 + p) / 2)
        return z * z
    }

    /// The p-quantile with 2 degrees of freedom: −2 ln(1 − p) (exact: χ²(2) is exponential).
    package static func quantile2(_ p: Double) -> Double { -2 * Foundation.log(1 - p) }

    /// The upper-α quantile with `degrees` degrees of freedom (at least 1), by the
    /// Wilson–Hilferty cube-root normal approximation (Wilson & Hilferty 1931), accurate to
    /// about 1 % for k ≥ 1 at α ≥ 0.001: χ²₁₋α(k) ≈ k (1 − 2/(9k) + z₁₋α √(2/(9k)))³.
    package static func upperQuantile(significance alpha: Double, degrees k: Int) -> Double {
        upperQuantile(normalQuantile: StandardNormal.upperQuantile(alpha), degrees: k)
    }

    /// The same with z₁₋α already computed (callers that cache it per significance).
    package static func upperQuantile(normalQuantile z: Double, degrees k: Int) -> Double {
        let kd = Double(max(k, 1))
        let c = 2 / (9 * kd)
        let t = max(1 - c + z * c.squareRoot(), 0)
        return kd * t * t * t
    }
}
