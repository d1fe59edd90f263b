import BeaconModel

/// The tracker's estimate at one instant.
public struct TrackEstimate: Sendable, Hashable, Codable {
    /// The time the estimate stands for, seconds.
    public var time: Double
    /// Horizontal position, metres.
    public var position: Point2D
    /// Horizontal velocity, metres per second.
    public var velocity: Point2D
    /// Variance of x, m².
    public var covarianceXX: Double
    /// Covariance of x and y, m².
    public var covarianceXY: Double
    /// Variance of y, m².
    public var covarianceYY: Double
    /// The floor level, if the tracker knows it.
    public var level: Int?

    /// A complete estimate (seconds, metres, metres per second, m²).
    public init(
        time: Double, position: Point2D, velocity: Point2D,
        covarianceXX: Double, covarianceXY: Double, covarianceYY: Double, level: Int?
    ) {
        self.time = time
        self.position = position
        self.velocity = velocity
        self.covarianceXX = covarianceXX
        self.covarianceXY = covarianceXY
        self.covarianceYY = covarianceYY
        self.level = level
    }

    /// The 1-sigma horizontal error radius, metres: √(var x + var y). For a well-tuned filter
    /// about 63 % of true positions lie within it (for an isotropic Gaussian, 1 − e⁻¹).
    public var accuracy: Double { max(0, covarianceXX + covarianceYY).squareRoot() }

    /// Speed, metres per second.
    public var speed: Double { (velocity.x * velocity.x + velocity.y * velocity.y).squareRoot() }
}
