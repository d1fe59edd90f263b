import BeaconModel
import Foundation
import LinearAlgebra

/// The Cramér–Rao bound of RSSI localisation under log-normal shadowing (Patwari et al.,
/// "Relative location estimation in wireless sensor networks", IEEE Trans. Signal Processing
/// 51(8), 2003): no unbiased estimator has a smaller covariance than the inverse of
///
///     J = Σᵢ mᵢ (kᵢ/σᵢ)² gᵢ gᵢᵀ,   gᵢ = (p − bᵢ)/dᵢ²,   kᵢ = 10 nᵢ/ln 10,
///
/// with mᵢ the sample count, dᵢ the true 3D distance and gᵢ restricted to the estimated
/// coordinates (x, y in planar mode, where the receiver height is known).
public enum CramerRaoBound {
    /// The bound on the covariance of a planar (x, y) estimate at the true position `point`
    /// (absolute, metres; its z is the known receiver height), m². Returns nil when the
    /// information matrix is singular (the geometry cannot determine the position).
    public static func horizontal(at point: Point3D, observations: [BeaconObservation]) -> PositionCovariance? {
        bound(at: point, observations: observations, order: 2)
    }

    /// The bound on the covariance of a spatial (x, y, z) estimate at `point`, m²; nil when
    /// the information matrix is singular.
    public static func spatial(at point: Point3D, observations: [BeaconObservation]) -> PositionCovariance? {
        bound(at: point, observations: observations, order: 3)
    }

    /// The horizontal root-mean-square error bound √(trace J⁻¹) of a planar estimate at
    /// `point`, metres; `.infinity` when the geometry cannot determine the position.
    public static func horizontalRMSE(at point: Point3D, observations: [BeaconObservation]) -> Double {
        horizontal(at: point, observations: observations)?.horizontalRadius ?? .infinity
    }

    static func bound(at point: Point3D, observations: [BeaconObservation], order: Int) -> PositionCovariance? {
        var information = SmallSymmetricMatrix(order: order)
        for o in observations {
            let delta = SIMD3(point.x - o.position.x, point.y - o.position.y, point.z - o.position.z)
            let d2 = max((delta * delta).sum(), 1e-4)
            let k = o.model.logSlope / o.model.sigma
            information.addOuter(delta / d2, weight: Double(max(o.count, 0)) * k * k)
        }
        guard information.isPositiveDefinite(relativeFloor: 1e-14),
            let inverse = information.inverse()
        else { return nil }
        if order == 2 {
            return PositionCovariance(xx: inverse.a00, xy: inverse.a10, yy: inverse.a11)
        }
        return PositionCovariance(
            xx: inverse.a00, xy: inverse.a10, yy: inverse.a11,
            xz: inverse.a20, yz: inverse.a21, zz: inverse.a22)
    }
}
