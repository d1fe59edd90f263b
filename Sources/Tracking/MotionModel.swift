import Foundation
import LinearAlgebra

/// The tracker's motion model per axis: white-noise acceleration (constant velocity), or, when
/// a velocity correlation time τ is set, an integrated Ornstein–Uhlenbeck velocity whose
/// prediction decays towards rest (dv = −v/τ dt + dW): the walker's velocity is remembered for
/// about τ seconds, so a turn or a stop overshoots less.
///
/// With β = 1/τ and spectral density q (m²/s³), over dt seconds (Bar-Shalom, Li & Kirubarajan,
/// "Estimation with Applications to Tracking and Navigation", 2001, §6.2 and §8.2):
///
///     constant velocity:  F = [[1, dt], [0, 1]],  Q = q [[dt³/3, dt²/2], [dt²/2, dt]]
///     Ornstein–Uhlenbeck: F = [[1, (1 − e^{−β dt})/β], [0, e^{−β dt}]]
///                         Q_vv = q (1 − e^{−2β dt}) / (2β)
///                         Q_pv = q (1 − 2e^{−β dt} + e^{−2β dt}) / (2β²)
///                         Q_pp = q (2β dt − 3 + 4e^{−β dt} − e^{−2β dt}) / (2β³)
struct MotionModel: Sendable, Hashable {
    /// Acceleration spectral density q, m²/s³.
    var density: Double
    /// Velocity correlation time τ, seconds, or nil for constant velocity.
    var correlationTime: Double?

    /// F(dt) for the state (x, y, vx, vy).
    @inlinable
    func transition(_ dt: Double) -> Matrix4 {
        let (fpv, fvv) = coefficients(dt)
        return Matrix4(Vector4(1, 0, fpv, 0), Vector4(0, 1, 0, fpv), Vector4(0, 0, fvv, 0), Vector4(0, 0, 0, fvv))
    }

    /// The (position-velocity, velocity-velocity) entries of F over dt seconds.
    @inlinable
    func coefficients(_ dt: Double) -> (Double, Double) {
        guard let tau = correlationTime else { return (dt, 1) }
        let e = Foundation.exp(-dt / tau)
        return (tau * (1 - e), e)
    }

    /// Q(dt) per axis as (pp, pv, vv), in m², m²/s, m²/s².
    @inlinable
    func noise(_ dt: Double) -> (Double, Double, Double) {
        let q = density
        guard let tau = correlationTime else {
            let dt2 = dt * dt
            return (q * dt2 * dt / 3, q * dt2 / 2, q * dt)
        }
        let b = 1 / tau
        let bdt = b * dt
        guard bdt > 1e-4 else {
            // Series limit: the constant-velocity values (relative error < 1e-4).
            let dt2 = dt * dt
            return (q * dt2 * dt / 3, q * dt2 / 2, q * dt)
        }
        let e1 = Foundation.exp(-bdt), e2 = e1 * e1
        return (
            q * (2 * bdt - 3 + 4 * e1 - e2) / (2 * b * b * b),
            q * (1 - 2 * e1 + e2) / (2 * b * b),
            q * (1 - e2) / (2 * b)
        )
    }
}
