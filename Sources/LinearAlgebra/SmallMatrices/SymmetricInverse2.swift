/// The inverse of the symmetric 2 × 2 matrix [[a, b], [b, c]] as (a', b', c') (the same layout),
/// or nil when it is not positive-definite (a or c not positive, or a determinant below 1e-12 of
/// a c, or not finite).
@inlinable
package func inverseOfSymmetric2(_ a: Double, _ b: Double, _ c: Double) -> (Double, Double, Double)? {
    let det = a * c - b * b
    guard a > 0, c > 0, det > 1e-12 * a * c, det.isFinite else { return nil }
    return (c / det, -b / det, a / det)
}
