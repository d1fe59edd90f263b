/// A symmetric matrix of order 1, 2 or 3 held in fixed storage (lower triangle), with the
/// hand-written Cholesky solves the solver's fast path uses. No heap allocation.
@usableFromInline
package struct SmallSymmetricMatrix: Sendable, Hashable {
    /// Order, 1…3.
    @usableFromInline package var order: Int
    @usableFromInline package var a00 = 0.0, a10 = 0.0, a11 = 0.0, a20 = 0.0, a21 = 0.0, a22 = 0.0

    @inlinable
    package init(order: Int) { self.order = order }

    /// Element (i, j), either triangle.
    @inlinable
    package subscript(i: Int, j: Int) -> Double {
        get {
            switch (max(i, j), min(i, j)) {
            case (0, 0): return a00
            case (1, 0): return a10
            case (1, 1): return a11
            case (2, 0): return a20
            case (2, 1): return a21
            default: return a22
            }
        }
        set {
            switch (max(i, j), min(i, j)) {
            case (0, 0): a00 = newValue
            case (1, 0): a10 = newValue
            case (1, 1): a11 = newValue
            case (2, 0): a20 = newValue
            case (2, 1): a21 = newValue
            default: a22 = newValue
            }
        }
    }

    @inlinable
    package var trace: Double {
        order == 1 ? a00 : order == 2 ? a00 + a11 : a00 + a11 + a22
    }

    /// Adds `w · v vᵀ` (the first `order` components of v).
    @inline(__always)
    @inlinable
    package mutating func addOuter(_ v: SIMD3<Double>, weight w: Double) {
        a00 += w * v.x * v.x
        if order > 1 {
            a10 += w * v.y * v.x
            a11 += w * v.y * v.y
            if order > 2 {
                a20 += w * v.z * v.x
                a21 += w * v.z * v.y
                a22 += w * v.z * v.z
            }
        }
    }

    /// Adds another matrix of the same order.
    @inlinable
    package mutating func add(_ other: SmallSymmetricMatrix) {
        a00 += other.a00
        a10 += other.a10
        a11 += other.a11
        a20 += other.a20
        a21 += other.a21
        a22 += other.a22
    }

    /// Multiplies every element by `factor`.
    @inlinable
    package mutating func scale(by factor: Double) {
        a00 *= factor
        a10 *= factor
        a11 *= factor
        a20 *= factor
        a21 *= factor
        a22 *= factor
    }

    /// Adds μ to the diagonal.
    @inlinable
    package mutating func addDiagonal(_ mu: Double) {
        a00 += mu
        if order > 1 { a11 += mu }
        if order > 2 { a22 += mu }
    }

    /// Solves A x = b by Cholesky (A = L Lᵀ). Returns nil when a pivot is not positive
    /// relative to the diagonal (the matrix is not numerically positive definite).
    @inline(__always)
    @inlinable
    package func solve(_ b: SIMD3<Double>) -> SIMD3<Double>? {
        if order == 2 {
            // Closed-form 2 × 2 Cholesky: the planar fast path.
            let floor = max(abs(a00), abs(a11)) * 1e-13
            guard a00 > floor else { return nil }
            let l10 = a10 / a00
            let p11 = a11 - l10 * a10
            guard p11 > floor else { return nil }
            let x1 = (b.y - l10 * b.x) / p11
            let x0 = (b.x - a10 * x1) / a00
            return SIMD3(x0, x1, 0)
        }
        let scale = max(abs(a00), order > 1 ? abs(a11) : 0, order > 2 ? abs(a22) : 0)
        let floor = scale * 1e-13
        guard a00 > floor else { return nil }
        let l00 = a00.squareRoot()
        if order == 1 { return SIMD3(b.x / a00, 0, 0) }
        let l10 = a10 / l00
        let p11 = a11 - l10 * l10
        guard p11 > floor else { return nil }
        let l11 = p11.squareRoot()
        if order == 2 {
            let y0 = b.x / l00
            let y1 = (b.y - l10 * y0) / l11
            let x1 = y1 / l11
            let x0 = (y0 - l10 * x1) / l00
            return SIMD3(x0, x1, 0)
        }
        let l20 = a20 / l00
        let l21 = (a21 - l20 * l10) / l11
        let p22 = a22 - l20 * l20 - l21 * l21
        guard p22 > floor else { return nil }
        let l22 = p22.squareRoot()
        let y0 = b.x / l00
        let y1 = (b.y - l10 * y0) / l11
        let y2 = (b.z - l20 * y0 - l21 * y1) / l22
        let x2 = y2 / l22
        let x1 = (y1 - l21 * x2) / l11
        let x0 = (y0 - l10 * x1 - l20 * x2) / l00
        return SIMD3(x0, x1, x2)
    }

    /// The inverse, by Cholesky solves (closed form for order 2); nil when not positive
    /// definite.
    @inlinable
    package func inverse() -> SmallSymmetricMatrix? {
        var result = SmallSymmetricMatrix(order: order)
        if order == 2 {
            guard let c0 = solve(SIMD3(1, 0, 0)), let c1 = solve(SIMD3(0, 1, 0)) else { return nil }
            result.a00 = c0.x
            result.a10 = c0.y
            result.a11 = c1.y
            return result
        }
        for j in 0..<order {
            var e = SIMD3<Double>(0, 0, 0)
            e[j] = 1
            guard let column = solve(e) else { return nil }
            for i in j..<order { result[i, j] = column[i] }
        }
        return result
    }
}

extension SmallSymmetricMatrix {
    /// Whether every Cholesky pivot exceeds `relativeFloor` × the largest diagonal element.
    @inlinable
    package func isPositiveDefinite(relativeFloor: Double) -> Bool {
        let scale = max(abs(a00), order > 1 ? abs(a11) : 0, order > 2 ? abs(a22) : 0)
        let floor = scale * relativeFloor
        guard a00 > floor, a00 > 0 else { return false }
        if order == 1 { return true }
        let l00 = a00.squareRoot()
        let l10 = a10 / l00
        let p11 = a11 - l10 * l10
        guard p11 > floor else { return false }
        if order == 2 { return true }
        let l11 = p11.squareRoot()
        let l20 = a20 / l00
        let l21 = (a21 - l20 * l10) / l11
        return a22 - l20 * l20 - l21 * l21 > floor
    }
}
