/// A 2 × 2 symmetric positive-definite matrix factored as L Lᵀ, for solving with S.
@usableFromInline
package struct Cholesky2 {
    @usableFromInline package let l00: Double, l10: Double, l11: Double

    /// Factors [[a, b], [b, c]]; nil unless positive-definite and finite.
    @inlinable
    package init?(_ a: Double, _ b: Double, _ c: Double) {
        guard a > 0, a.isFinite else { return nil }
        let l00 = a.squareRoot()
        let l10 = b / l00
        let rest = c - l10 * l10
        guard rest > 0, rest.isFinite else { return nil }
        self.l00 = l00
        self.l10 = l10
        self.l11 = rest.squareRoot()
    }

    /// Solves L Lᵀ w = (u, v).
    @inlinable
    package func solve(_ u: Double, _ v: Double) -> (Double, Double) {
        let y0 = u / l00
        let y1 = (v - l10 * y0) / l11
        let w1 = y1 / l11
        let w0 = (y0 - l10 * w1) / l00
        return (w0, w1)
    }
}
