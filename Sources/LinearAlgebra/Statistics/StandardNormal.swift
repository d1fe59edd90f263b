import Foundation

/// The standard normal distribution's quantiles, used by calibration (trimmed fits), the
/// solver's outlier tests and the tracker's gates: one implementation for the package.
package enum StandardNormal {
    // Acklam's rational approximation of Φ⁻¹ (relative error below 1.2e-9 before refinement).
    private static let a = [
        -3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
        1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00
    ]
    private static let b = [
        -5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
        6.680131188771972e+01, -1.328068155288572e+01
    ]
    private static let c = [
        -7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
        -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00
    ]
    private static let d = [
        7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
        3.754408661907416e+00
    ]

    /// Φ⁻¹(p): the z with P(Z ≤ z) = p for a standard normal Z. Acklam's rational
    /// approximation refined by one Halley step on Φ(x) = erfc(−x/√2)/2, which leaves an error
    /// of a few units in the last place for p in [1e-300, 1 − 1e-16]; `p` is clamped into that
    /// range (so 0 and 1 give about −37 and +8.2, never an infinity). Above ½ it returns
    /// −Φ⁻¹(1 − p), as 1 − p is exact there while Φ(x) near 1 is not, so the refinement keeps
    /// its accuracy in the upper tail too.
    package static func quantile(_ p: Double) -> Double {
        let p = min(max(p, 1e-300), 1 - 1e-16)
        return p > 0.5 ? -lowerHalfQuantile(1 - p) : lowerHalfQuantile(p)
    }

    private static func lowerHalfQuantile(_ p: Double) -> Double {
        let low = 0.02425
        var x: Double
        if p < low {
            let q = (-2 * Foundation.log(p)).squareRoot()
            x =
                (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5])
                / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
        } else if p <= 1 - low {
            let q = p - 0.5, r = q * q
            x =
                (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q
                / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)
        } else {
            let q = (-2 * Foundation.log(1 - p)).squareRoot()
            x =
                -(((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5])
                / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
        }
        let e = 0.5 * erfc(-x / 2.0.squareRoot()) - p
        let u = e * (2 * Double.pi).squareRoot() * Foundation.exp(x * x / 2)
        x -= u / (1 + x * u / 2)
        return x
    }

    /// z with P(Z > z) = α: ``quantile(_:)`` at 1 − α.
    package static func upperQuantile(_ alpha: Double) -> Double { quantile(1 - alpha) }
}
