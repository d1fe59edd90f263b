/// The covariance of a position estimate, m². In a planar fix the vertical terms are zero
/// (the height is given, not estimated).
public struct PositionCovariance: Sendable, Hashable, Codable {
    /// Variance of x (east), m².
    public var xx: Double
    /// Covariance of x and y, m².
    public var xy: Double
    /// Variance of y (north), m².
    public var yy: Double
    /// Covariance of x and z, m² (0 in a planar fix).
    public var xz: Double
    /// Covariance of y and z, m² (0 in a planar fix).
    public var yz: Double
    /// Variance of z (up), m² (0 in a planar fix).
    public var zz: Double

    /// A covariance from its terms, m².
    public init(xx: Double, xy: Double, yy: Double, xz: Double = 0, yz: Double = 0, zz: Double = 0) {
        self.xx = xx
        self.xy = xy
        self.yy = yy
        self.xz = xz
        self.yz = yz
        self.zz = zz
    }

    /// The zero covariance.
    public static let zero = PositionCovariance(xx: 0, xy: 0, yy: 0)

    /// The 1-σ horizontal radius √(var x + var y), metres: the `accuracy` of a fix.
    public var horizontalRadius: Double { max(xx + yy, 0).squareRoot() }

    /// The 1-σ spatial radius √(var x + var y + var z), metres.
    public var spatialRadius: Double { max(xx + yy + zz, 0).squareRoot() }

    /// Whether every term is finite.
    public var isFinite: Bool {
        xx.isFinite && xy.isFinite && yy.isFinite && xz.isFinite && yz.isFinite && zz.isFinite
    }

    /// Whether the horizontal block is a covariance: var x ≥ 0, var y ≥ 0 and cov xy² ≤
    /// var x · var y (with room for rounding: a relative 10⁻⁹ and 10⁻¹² m⁴). False for NaN.
    public var isHorizontalCovariance: Bool {
        xx >= 0 && yy >= 0 && xy * xy <= xx * yy * (1 + 1e-9) + 1e-12
    }
}

extension PositionCovariance {
    /// Adds the rank-one term s·u vᵀ to the stored (upper) elements, m². Summed over a basis
    /// with a symmetric s it builds a covariance in 3-D from one in a subspace.
    @inlinable
    package mutating func add(_ s: Double, _ u: SIMD3<Double>, _ v: SIMD3<Double>) {
        xx += s * u.x * v.x
        xy += s * u.x * v.y
        yy += s * u.y * v.y
        xz += s * u.x * v.z
        yz += s * u.y * v.z
        zz += s * u.z * v.z
    }
}

extension PositionCovariance {
    /// Adds another covariance's horizontal block (xx, xy, yy), m²: the covariance of the sum
    /// of two independent errors.
    package mutating func add(_ other: PositionCovariance) {
        xx += other.xx
        xy += other.xy
        yy += other.yy
    }
}
