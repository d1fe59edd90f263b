import Foundation
import LinearAlgebra
import TestSupport

@testable import Tracking

/// The causal information bound along a simulated walk: the covariance a Kalman filter with the
/// given motion model would reach if every RSSI sample were linearised at the true position
/// (the Fisher information of the log-distance model, Patwari et al. 2003, accumulated by the
/// filter recursion P⁻ = F P Fᵀ + Q, P = (P⁻⁻¹ + Hᵀ H / σ²)⁻¹ in Joseph form). Returned as the
/// root of the mean of var x + var y at the epoch ends 2 … 300 s, metres.
enum InformationBound {
    static func rmse(_ walk: WalkSimulator, motion: MotionModel) -> Double {
        let c = walk.configuration
        let r = c.model.sigma * c.model.sigma
        var p = Matrix4.diagonal(Vector4(4, 4, 0.64, 0.64))
        var t = 0.0
        var sum = 0.0, n = 0.0
        var epoch = 1.0
        func predicted(_ p: Matrix4, _ dt: Double) -> Matrix4 {
            let f = motion.transition(dt)
            var out = f * p * f.transposed
            let (a, b, v) = motion.noise(dt)
            out.r0 += Vector4(a, 0, b, 0)
            out.r1 += Vector4(0, a, 0, b)
            out.r2 += Vector4(b, 0, v, 0)
            out.r3 += Vector4(0, b, 0, v)
            return out
        }
        for s in walk.samples {
            while s.time >= epoch {
                let atEnd = predicted(p, epoch - t)
                if epoch >= 2 {
                    sum += atEnd[0, 0] + atEnd[1, 1]
                    n += 1
                }
                epoch += 1
            }
            p = predicted(p, s.time - t)
            t = s.time
            let truth = walk.position(at: s.time)
            let b = walk.beacons[s.beacon]
            let dx = truth.x - b.x, dy = truth.y - b.y, dz = c.receiverHeight - b.z
            let d2 = dx * dx + dy * dy + dz * dz
            let h = Vector4(-c.model.logSlope * dx / d2, -c.model.logSlope * dy / d2, 0, 0)
            let ph = p * h
            let k = ph / ((h * ph).sum() + r)
            let a = Matrix4.identity - Matrix4.outer(k, h)
            p = (a * p * a.transposed + r * Matrix4.outer(k, k)).symmetrized
        }
        return (sum / max(n, 1)).squareRoot()
    }
}
