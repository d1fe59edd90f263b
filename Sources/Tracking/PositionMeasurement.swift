import BeaconModel
import LinearAlgebra

/// A measured horizontal position with its covariance, as a solver's fix gives it: the input of
/// ``KalmanTracker/update(_:)-(PositionMeasurement)`` and of ``KalmanTracker/init(first:configuration:)``.
public struct PositionMeasurement: Sendable, Hashable, Codable {
    /// The time the position stands for, seconds.
    public var time: Double
    /// East coordinate, metres.
    public var x: Double
    /// North coordinate, metres.
    public var y: Double
    /// Variance of x, m².
    public var covarianceXX: Double
    /// Covariance of x and y, m².
    public var covarianceXY: Double
    /// Variance of y, m².
    public var covarianceYY: Double
    /// The floor level the position is on, if known.
    public var level: Int?

    /// A measurement from its parts: time in seconds, position in metres, covariance in m².
    public init(
        time: Double, x: Double, y: Double,
        covarianceXX: Double, covarianceXY: Double = 0, covarianceYY: Double,
        level: Int? = nil
    ) {
        self.time = time
        self.x = x
        self.y = y
        self.covarianceXX = covarianceXX
        self.covarianceXY = covarianceXY
        self.covarianceYY = covarianceYY
        self.level = level
    }

    /// A measurement at `position` (metres) with an isotropic standard deviation `sigma` (metres).
    public init(time: Double, position: Point2D, sigma: Double, level: Int? = nil) {
        self.init(
            time: time, x: position.x, y: position.y,
            covarianceXX: sigma * sigma, covarianceXY: 0, covarianceYY: sigma * sigma, level: level)
    }

    /// The position, metres.
    public var position: Point2D { Point2D(x: x, y: y) }

    /// Throws unless every value is finite and the covariance is positive-definite.
    func validate() throws(TrackingError) {
        guard time.isFinite else { throw .nonFiniteInput(field: "PositionMeasurement.time") }
        try TrackingError.checkTime(time, "PositionMeasurement.time")
        guard x.isFinite, y.isFinite else { throw .nonFiniteInput(field: "PositionMeasurement.position") }
        try TrackingError.checkCoordinate(x, "PositionMeasurement.x")
        try TrackingError.checkCoordinate(y, "PositionMeasurement.y")
        guard covarianceXX.isFinite, covarianceXY.isFinite, covarianceYY.isFinite,
            covarianceXX > 0, covarianceYY > 0,
            covarianceXX * covarianceYY - covarianceXY * covarianceXY > 0
        else {
            throw .invalidCovariance(xx: covarianceXX, xy: covarianceXY, yy: covarianceYY)
        }
    }

    /// The squared Mahalanobis distance of this fix from a track at (x, y) with horizontal
    /// covariance (xx, xy, yy): νᵀ S⁻¹ ν with ν = fix − track and S = P + R, by solving S w = ν.
    /// - Throws: `covarianceNotPositiveDefinite` when S is not.
    func mahalanobisSquared(
        fromX x: Double, y: Double, xx: Double, xy: Double, yy: Double
    ) throws(TrackingError) -> Double {
        let nu0 = self.x - x, nu1 = self.y - y
        guard let chol = Cholesky2(xx + covarianceXX, xy + covarianceXY, yy + covarianceYY) else {
            throw .covarianceNotPositiveDefinite
        }
        let w = chol.solve(nu0, nu1)
        return nu0 * w.0 + nu1 * w.1
    }
}
