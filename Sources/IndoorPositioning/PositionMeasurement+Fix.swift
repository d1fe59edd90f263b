import LinearAlgebra
import Tracking
import Trilateration

extension PositionMeasurement {
    /// A position measurement from a trilateration fix: its horizontal position and covariance,
    /// stamped at `time` seconds (the time the fix stands for), on the fix's level.
    ///
    /// Variances below `minimumVariance` (m², default 1 mm²) are raised to it, so that a fix
    /// whose covariance collapsed (noise-free input) is still a valid measurement.
    public init(_ fix: Fix, time: Double, minimumVariance: Double = 1e-6) {
        self.init(
            time: time, x: fix.position.x, y: fix.position.y,
            covarianceXX: max(fix.covariance.xx, minimumVariance), covarianceXY: fix.covariance.xy,
            covarianceYY: max(fix.covariance.yy, minimumVariance), level: fix.level)
    }
}

extension PositionMeasurement {
    /// The measurement a new track starts from: the fix's position, with the covariance that
    /// its readings support on their own.
    ///
    /// Two corrections to the fix's ``Fix/covariance`` (P, information J = P⁻¹ in the
    /// horizontal plane):
    /// - the centroid prior's information is taken out, J' = J − w I (w =
    ///   ``Fix/centroidPriorWeight``): the prior is made from the same readings (the strongest
    ///   beacons' weighted centroid), so it regularises the position but adds no independent
    ///   information to claim;
    /// - the result is scaled by the fix's a-posteriori variance factor max(1, χ²/dof)
    ///   (``Fix/chiSquare``, ``Fix/degreesOfFreedom``), the least-squares correction for
    ///   residuals that scatter more than the models' σ says (never below the models' own σ).
    ///
    /// When J' is not positive definite (the readings alone do not fix the position) the prior
    /// stays in. Variances are kept in [`minimumVariance`, `maximumVariance`] m² (a larger
    /// matrix is scaled down whole, keeping its correlation). A fallback or degenerate fix has
    /// neither a prior nor degrees of freedom and starts with its covariance as it is.
    init(startingTrackAt fix: Fix, time: Double, minimumVariance: Double = 1e-6, maximumVariance: Double) {
        var (xx, xy, yy) = (fix.covariance.xx, fix.covariance.xy, fix.covariance.yy)
        let w = fix.centroidPriorWeight
        if w > 0, let j = inverseOfSymmetric2(xx, xy, yy), let p = inverseOfSymmetric2(j.0 - w, j.1, j.2 - w) {
            (xx, xy, yy) = p
        }
        if fix.degreesOfFreedom > 0, fix.chiSquare.isFinite {
            let factor = max(1, fix.chiSquare / Double(fix.degreesOfFreedom))
            (xx, xy, yy) = (xx * factor, xy * factor, yy * factor)
        }
        let largest = max(xx, yy)
        if largest > maximumVariance {
            let shrink = maximumVariance / largest
            (xx, xy, yy) = (xx * shrink, xy * shrink, yy * shrink)
        }
        self.init(
            time: time, x: fix.position.x, y: fix.position.y,
            covarianceXX: max(xx, minimumVariance), covarianceXY: xy,
            covarianceYY: max(yy, minimumVariance), level: fix.level)
    }
}
