import Foundation

/// Quantiles of the χ² distribution, for the outlier test.
enum ChiSquare {
    private static let a = [-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
             1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00]
    private static let b = [-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
             6.680131188771972e+01, -1.328068155288572e+01]
    private static let c = [-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
             -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00]
    private static let d = [7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
             3.754408661907416e+00]

    /// The upper-α quantile of χ² with `degrees` degrees of freedom, by the Wilson–Hilferty
    /// cube-root normal approximation (Wilson & Hilferty 1931), accurate to about 1 % for
    /// k ≥ 1 at α ≥ 0.001: χ²₁₋α(k) ≈ k (1 − 2/(9k) + z₁₋α √(2/(9k)))³.
    static func upperQuantile(significance alpha: Double, degrees k: Int) -> Double {
        let kd = Double(max(k, 1))
        let z = standardNormalUpperQuantile(alpha)
        let c = 2 / (9 * kd)
        let t = max(1 - c + z * c.squareRoot(), 0)
        return kd * t * t * t
    }

    /// z with P(Z > z) = α for a standard normal Z (Acklam's rational approximation refined by
    /// one Halley step on erfc; relative error below 1e-9).
    static func standardNormalUpperQuantile(_ alpha: Double) -> Double {
        let p = min(max(1 - alpha, 1e-300), 1 - 1e-16)
        let low = 0.02425
        var x: Double
        if p < low {
            let q = (-2 * Foundation.log(p)).squareRoot()
            x = (((((Self.c[0] * q + Self.c[1]) * q + Self.c[2]) * q + Self.c[3]) * q + Self.c[4]) * q + Self.c[5]) /
                ((((Self.d[0] * q + Self.d[1]) * q + Self.d[2]) * q + Self.d[3]) * q + 1)
        } else if p <= 1 - low {
            let q = p - 0.5, r = q * q
            x = (((((Self.a[0] * r + Self.a[1]) * r + Self.a[2]) * r + Self.a[3]) * r + Self.a[4]) * r + Self.a[5]) * q /
                (((((Self.b[0] * r + Self.b[1]) * r + Self.b[2]) * r + Self.b[3]) * r + Self.b[4]) * r + 1)
        } else {
            let q = (-2 * Foundation.log(1 - p)).squareRoot()
            x = -(((((Self.c[0] * q + Self.c[1]) * q + Self.c[2]) * q + Self.c[3]) * q + Self.c[4]) * q + Self.c[5]) /
                ((((Self.d[0] * q + Self.d[1]) * q + Self.d[2]) * q + Self.d[3]) * q + 1)
        }
        let e = 0.5 * erfc(-x / 2.0.squareRoot()) - p
        let u = e * (2 * Double.pi).squareRoot() * Foundation.exp(x * x / 2)
        x -= u / (1 + x * u / 2)
        return x
    }
}
