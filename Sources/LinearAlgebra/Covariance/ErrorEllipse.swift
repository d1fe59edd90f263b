import Foundation

/// The 1-σ error ellipse of a horizontal position: the level curve of the Gaussian density
/// one standard deviation out, from the eigen-decomposition of the 2 × 2 horizontal covariance.
public struct ErrorEllipse: Sendable, Hashable, Codable {
    /// Semi-major axis, metres (√ of the larger eigenvalue).
    public var semiMajor: Double
    /// Semi-minor axis, metres (√ of the smaller eigenvalue).
    public var semiMinor: Double
    /// Direction of the major axis, radians counter-clockwise from the x (east) axis, in
    /// (−π/2, π/2].
    public var orientation: Double

    /// An ellipse from its axes (metres) and orientation (radians).
    public init(semiMajor: Double, semiMinor: Double, orientation: Double) {
        self.semiMajor = semiMajor
        self.semiMinor = semiMinor
        self.orientation = orientation
    }

    /// The degenerate ellipse of a zero covariance.
    public static let zero = ErrorEllipse(semiMajor: 0, semiMinor: 0, orientation: 0)

    /// The ellipse of the horizontal part of `covariance`, closed form for a symmetric 2 × 2
    /// matrix: λ = (a + c)/2 ± √(((a − c)/2)² + b²), θ = ½ atan2(2b, a − c).
    public init(horizontalOf covariance: PositionCovariance) {
        let a = covariance.xx, b = covariance.xy, c = covariance.yy
        let mean = (a + c) / 2
        let radius = (((a - c) / 2) * ((a - c) / 2) + b * b).squareRoot()
        semiMajor = max(mean + radius, 0).squareRoot()
        semiMinor = max(mean - radius, 0).squareRoot()
        // ½ atan2(2b, a − c) lies in (−π/2, π/2]; a circle has orientation 0.
        orientation = radius == 0 ? 0 : 0.5 * atan2(2 * b, a - c)
    }

    /// The ellipse with the given eigenvalues (m², larger first) and major-axis direction.
    package init(eigenvalues: (Double, Double), majorAxis: (Double, Double)) {
        semiMajor = max(eigenvalues.0, 0).squareRoot()
        semiMinor = max(min(eigenvalues.1, eigenvalues.0), 0).squareRoot()
        var angle = atan2(majorAxis.1, majorAxis.0)
        if angle > Double.pi / 2 { angle -= Double.pi }
        if angle <= -Double.pi / 2 { angle += Double.pi }
        orientation = angle
    }
}
