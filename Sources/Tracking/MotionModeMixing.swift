import Foundation
import LinearAlgebra

/// One epoch's kinematic transition per axis, [[1, a], [0, b]] with process noise (pp, pv, vv),
/// and, for a mixture of motion modes, the spread of (a, b) over the modes.
///
/// The modes differ only in a, b and Q. Predicting every mode from the same state and
/// merging the predictions by their moments (GPB1; Bar-Shalom, Li & Kirubarajan 2001, §11.6.5)
/// gives, with weights μₘ, ā = Σ μₘ aₘ, b̄ = Σ μₘ bₘ and M = P_vv + v vᵀ the velocity's
/// second moment per axis pair,
///
///     x̄  = F̄ x,   F̄ = [[1, ā], [0, b̄]] per axis
///     P̄  = F̄ P F̄ᵀ + Σ μₘ Qₘ + [[var a, cov ab], [cov ab, var b]] ⊗ M
///
/// exactly (the last term collects both Σ μₘ Fₘ P Fₘᵀ − F̄ P F̄ᵀ and the spread of the modes'
/// means). So the mixture costs one prediction and one measurement update, whatever the
/// number of modes.
struct KinematicStep: Sendable {
    var positionVelocity: Double
    var velocity: Double
    var noise: (Double, Double, Double)
    /// (var a, cov ab, var b) over the modes (0 for a single model).
    var spread: (Double, Double, Double) = (0, 0, 0)

    /// A single model's step.
    init(_ model: MotionModel, dt: Double) {
        (positionVelocity, velocity) = model.coefficients(dt)
        noise = model.noise(dt)
    }

    /// The moment-matched mixture of three models' steps with weights `mu`.
    init(_ models: (MotionModel, MotionModel, MotionModel), weights mu: ModeProbabilities, dt: Double) {
        let s = (KinematicStep(models.0, dt: dt), KinematicStep(models.1, dt: dt), KinematicStep(models.2, dt: dt))
        let w = (mu.standing, mu.strolling, mu.walking)
        let a = w.0 * s.0.positionVelocity + w.1 * s.1.positionVelocity + w.2 * s.2.positionVelocity
        let b = w.0 * s.0.velocity + w.1 * s.1.velocity + w.2 * s.2.velocity
        func moment(_ f: (KinematicStep) -> Double) -> Double { w.0 * f(s.0) + w.1 * f(s.1) + w.2 * f(s.2) }
        positionVelocity = a
        velocity = b
        noise = (moment { $0.noise.0 }, moment { $0.noise.1 }, moment { $0.noise.2 })
        spread = (
            max(0, moment { $0.positionVelocity * $0.positionVelocity } - a * a),
            moment { $0.positionVelocity * $0.velocity } - a * b,
            max(0, moment { $0.velocity * $0.velocity } - b * b)
        )
    }
}

/// The evidence an epoch's update gives each motion mode, cheaply: the update is summarised by
/// an equivalent position measurement and each mode's own prediction of the position is
/// scored against it.
///
/// With the merged prior (x̄⁻, P̄⁻) and the posterior (x⁺, P⁺) restricted to the position (2 × 2),
/// the measurement's information is I = P⁺⁻¹ − P̄⁻⁻¹; where I is positive-definite the
/// equivalent measurement is z = I⁻¹ (P⁺⁻¹ x⁺ − P̄⁻⁻¹ x̄⁻) with covariance R = I⁻¹ (exact for a
/// linear position measurement). Mode m predicts the position from the previous posterior
/// (p, v, P) as pₘ = p + aₘ v with Pₘ = P_pp + aₘ (P_pv + P_vp) + aₘ² P_vv + Q_pp,m, and its
/// likelihood is N(z; pₘ, Pₘ + R). When I is not positive-definite (an epoch that told little
/// about the position) the likelihoods are equal.
struct ModeEvidence: Sendable {
    /// The previous posterior's position, velocity and 4 × 4 kinematic covariance (row-major
    /// upper triangle: pxx, pxy, pxvx, pxvy, pyy, pyvx, pyvy, vxvx, vxvy, vyvy).
    var x = 0.0, y = 0.0, vx = 0.0, vy = 0.0
    var p = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)

    /// Reads the kinematic part of `state` and `covariance`.
    init(state: [Double], covariance c: SquareMatrix) {
        x = state[0]
        y = state[1]
        vx = state[2]
        vy = state[3]
        p = (c[0, 0], c[0, 1], c[0, 2], c[0, 3], c[1, 1], c[1, 2], c[1, 3], c[2, 2], c[2, 3], c[3, 3])
    }

    /// The three modes' likelihoods of the update from prior (x̄⁻, P̄⁻) to posterior (x⁺, P⁺).
    func likelihoods(
        models: (MotionModel, MotionModel, MotionModel), dt: Double,
        prior: [Double], priorCovariance: SquareMatrix,
        posterior: [Double], posteriorCovariance: SquareMatrix
    ) -> (Double, Double, Double) {
        let flat = (1.0, 1.0, 1.0)
        guard let priorInfo = inverseOfSymmetric2(priorCovariance[0, 0], priorCovariance[0, 1], priorCovariance[1, 1]),
            let postInfo = inverseOfSymmetric2(
                posteriorCovariance[0, 0], posteriorCovariance[0, 1], posteriorCovariance[1, 1])
        else { return flat }
        let i = (postInfo.0 - priorInfo.0, postInfo.1 - priorInfo.1, postInfo.2 - priorInfo.2)
        guard let r = inverseOfSymmetric2(i.0, i.1, i.2) else { return flat }
        let gx = postInfo.0 * posterior[0] + postInfo.1 * posterior[1] - priorInfo.0 * prior[0] - priorInfo.1 * prior[1]
        let gy = postInfo.1 * posterior[0] + postInfo.2 * posterior[1] - priorInfo.1 * prior[0] - priorInfo.2 * prior[1]
        let zx = r.0 * gx + r.1 * gy, zy = r.1 * gx + r.2 * gy
        func likelihood(_ m: MotionModel) -> Double {
            let (a, _) = m.coefficients(dt)
            let q = m.noise(dt).0
            let mx = x + a * vx, my = y + a * vy
            let sxx = p.0 + 2 * a * p.2 + a * a * p.7 + q + r.0
            let sxy = p.1 + a * (p.3 + p.5) + a * a * p.8 + r.1
            let syy = p.4 + 2 * a * p.6 + a * a * p.9 + q + r.2
            let det = sxx * syy - sxy * sxy
            guard det > 0 else { return 0 }
            let dx = zx - mx, dy = zy - my
            let d2 = (syy * dx * dx - 2 * sxy * dx * dy + sxx * dy * dy) / det
            return Foundation.exp(-0.5 * d2) / (2 * Double.pi * det.squareRoot())
        }
        let l = (likelihood(models.0), likelihood(models.1), likelihood(models.2))
        guard l.0.isFinite, l.1.isFinite, l.2.isFinite, l.0 + l.1 + l.2 > 0 else { return flat }
        return l
    }

}
