/// A 4-vector of doubles, the tracker's state layout (x, y, vx, vy). Stored inline: no heap.
public typealias Vector4 = SIMD4<Double>

/// A 4 × 4 matrix of doubles stored as four row vectors, for the tracker's covariance and
/// transition matrices. Plain fixed-size arithmetic: no heap allocation, no LAPACK call (a
/// LAPACK call on a 4 × 4 system costs more in bookkeeping than the whole update here).
public struct Matrix4: Sendable, Hashable {
    /// Row 0 … row 3.
    public var r0, r1, r2, r3: Vector4

    /// A matrix from its four rows.
    @inlinable
    public init(_ r0: Vector4, _ r1: Vector4, _ r2: Vector4, _ r3: Vector4) {
        self.r0 = r0
        self.r1 = r1
        self.r2 = r2
        self.r3 = r3
    }

    /// The zero matrix.
    public static let zero = Matrix4(.zero, .zero, .zero, .zero)

    /// The identity matrix.
    public static let identity = Matrix4(
        Vector4(1, 0, 0, 0), Vector4(0, 1, 0, 0),
        Vector4(0, 0, 1, 0), Vector4(0, 0, 0, 1))

    /// A diagonal matrix.
    @inlinable
    public static func diagonal(_ d: Vector4) -> Matrix4 {
        Matrix4(Vector4(d[0], 0, 0, 0), Vector4(0, d[1], 0, 0), Vector4(0, 0, d[2], 0), Vector4(0, 0, 0, d[3]))
    }

    /// Row `i` (0 ..< 4).
    @inlinable
    public subscript(row i: Int) -> Vector4 {
        get {
            switch i {
            case 0: return r0
            case 1: return r1
            case 2: return r2
            default: return r3
            }
        }
        set {
            switch i {
            case 0: r0 = newValue
            case 1: r1 = newValue
            case 2: r2 = newValue
            default: r3 = newValue
            }
        }
    }

    /// Element at row `i`, column `j`.
    @inlinable
    public subscript(i: Int, j: Int) -> Double {
        get { self[row: i][j] }
        set { self[row: i][j] = newValue }
    }

    /// The transpose.
    @inlinable
    public var transposed: Matrix4 {
        Matrix4(
            Vector4(r0[0], r1[0], r2[0], r3[0]), Vector4(r0[1], r1[1], r2[1], r3[1]),
            Vector4(r0[2], r1[2], r2[2], r3[2]), Vector4(r0[3], r1[3], r2[3], r3[3]))
    }

    /// (A + Aᵀ) / 2: removes the rounding asymmetry that products leave in a covariance.
    @inlinable
    public var symmetrized: Matrix4 {
        let t = transposed
        return Matrix4((r0 + t.r0) * 0.5, (r1 + t.r1) * 0.5, (r2 + t.r2) * 0.5, (r3 + t.r3) * 0.5)
    }

    /// The diagonal.
    @inlinable
    public var diagonal: Vector4 { Vector4(r0[0], r1[1], r2[2], r3[3]) }

    /// Whether every element is finite (no NaN, no infinity).
    @inlinable
    public var isFinite: Bool {
        for i in 0..<4 {
            let r = self[row: i]
            guard r[0].isFinite, r[1].isFinite, r[2].isFinite, r[3].isFinite else { return false }
        }
        return true
    }

    /// Matrix × vector.
    @inlinable
    public static func * (a: Matrix4, v: Vector4) -> Vector4 {
        Vector4((a.r0 * v).sum(), (a.r1 * v).sum(), (a.r2 * v).sum(), (a.r3 * v).sum())
    }

    /// Matrix × matrix.
    @inlinable
    public static func * (a: Matrix4, b: Matrix4) -> Matrix4 {
        @inline(__always) func row(_ r: Vector4) -> Vector4 {
            r[0] * b.r0 + r[1] * b.r1 + r[2] * b.r2 + r[3] * b.r3
        }
        return Matrix4(row(a.r0), row(a.r1), row(a.r2), row(a.r3))
    }

    /// Element-wise sum.
    @inlinable
    public static func + (a: Matrix4, b: Matrix4) -> Matrix4 {
        Matrix4(a.r0 + b.r0, a.r1 + b.r1, a.r2 + b.r2, a.r3 + b.r3)
    }

    /// Element-wise difference.
    @inlinable
    public static func - (a: Matrix4, b: Matrix4) -> Matrix4 {
        Matrix4(a.r0 - b.r0, a.r1 - b.r1, a.r2 - b.r2, a.r3 - b.r3)
    }

    /// Scalar multiple.
    @inlinable
    public static func * (s: Double, a: Matrix4) -> Matrix4 {
        Matrix4(s * a.r0, s * a.r1, s * a.r2, s * a.r3)
    }

    /// The outer product u vᵀ.
    @inlinable
    public static func outer(_ u: Vector4, _ v: Vector4) -> Matrix4 {
        Matrix4(u[0] * v, u[1] * v, u[2] * v, u[3] * v)
    }

    /// The Cholesky factor L (lower triangular, L Lᵀ = self) of a symmetric matrix, or nil when
    /// the matrix is not numerically positive-definite (a pivot ≤ 0 or not finite).
    @inlinable
    public var choleskyFactor: Matrix4? {
        var l = Matrix4.zero
        for j in 0..<4 {
            var d = self[j, j]
            for k in 0..<j { d -= l[j, k] * l[j, k] }
            guard d > 0, d.isFinite else { return nil }
            let ljj = d.squareRoot()
            l[j, j] = ljj
            for i in (j + 1)..<4 {
                var s = self[i, j]
                for k in 0..<j { s -= l[i, k] * l[j, k] }
                l[i, j] = s / ljj
            }
        }
        return l
    }

    /// The inverse of L Lᵀ from its lower Cholesky factor `l`, column by column (symmetrised).
    public static func inverse(choleskyFactor l: Matrix4) -> Matrix4 {
        Matrix4(
            choleskySolve(l, Vector4(1, 0, 0, 0)), choleskySolve(l, Vector4(0, 1, 0, 0)),
            choleskySolve(l, Vector4(0, 0, 1, 0)), choleskySolve(l, Vector4(0, 0, 0, 1))
        ).symmetrized
    }

    /// Solves L Lᵀ x = b given the lower Cholesky factor `l` (forward then back substitution).
    @inlinable
    public static func choleskySolve(_ l: Matrix4, _ b: Vector4) -> Vector4 {
        var y = Vector4.zero
        for i in 0..<4 {
            var s = b[i]
            for k in 0..<i { s -= l[i, k] * y[k] }
            y[i] = s / l[i, i]
        }
        var x = Vector4.zero
        for i in stride(from: 3, through: 0, by: -1) {
            var s = y[i]
            for k in (i + 1)..<4 { s -= l[k, i] * x[k] }
            x[i] = s / l[i, i]
        }
        return x
    }
}
