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
