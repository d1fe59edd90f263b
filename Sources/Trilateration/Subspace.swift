/// The affine set the solver searches: p = origin + B θ, B with 1–3 orthonormal columns.
///
/// Planar fixes use origin (0, 0, z) and B = [eₓ, e_y]; spatial fixes use B = I; rank-deficient
/// geometry (collinear or coplanar beacons) restricts B to the directions the beacons determine.
/// Because B is orthonormal, a step in θ has the same length in metres as in space.
struct Subspace: Sendable, Hashable {
    var origin: SIMD3<Double>
    var b0: SIMD3<Double>
    var b1: SIMD3<Double>
    var b2: SIMD3<Double>
    /// Number of unknowns, 1…3.
    var order: Int

    static func planar(z: Double) -> Subspace {
        Subspace(origin: SIMD3(0, 0, z), b0: SIMD3(1, 0, 0), b1: SIMD3(0, 1, 0), b2: .zero, order: 2)
    }

    /// Whether this is a horizontal plane with B = [eₓ, e_y] (a planar fix's full search set,
    /// not one restricted by degenerate geometry).
    var isHorizontalPlane: Bool { order == 2 && b2 == .zero && b0 == SIMD3(1, 0, 0) }

    static let spatial = Subspace(
        origin: .zero, b0: SIMD3(1, 0, 0), b1: SIMD3(0, 1, 0),
        b2: SIMD3(0, 0, 1), order: 3)

    /// Column k of B.
    func column(_ k: Int) -> SIMD3<Double> { k == 0 ? b0 : k == 1 ? b1 : b2 }

    /// The point at coordinates θ (only the first `order` components are read).
    @inline(__always)
    func point(_ theta: SIMD3<Double>) -> SIMD3<Double> {
        var p = origin + theta.x * b0
        if order > 1 { p += theta.y * b1 }
        if order > 2 { p += theta.z * b2 }
        return p
    }

    /// Bᵀ v: the components of a vector along the columns (unused components 0).
    @inline(__always)
    func project(_ v: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3((v * b0).sum(), order > 1 ? (v * b1).sum() : 0, order > 2 ? (v * b2).sum() : 0)
    }

    /// The coordinates of the point of the set nearest to `p`.
    func coordinates(of p: SIMD3<Double>) -> SIMD3<Double> { project(p - origin) }
}
