import BeaconModel

extension TrackEstimate {
    /// The moment-matched Gaussian of a mixture of `count` estimates, estimate k with weight
    /// wₖ (Σ wₖ = 1): mean μ = Σ wₖ μₖ, covariance Σ wₖ (Pₖ + (μₖ − μ)(μₖ − μ)ᵀ) for the
    /// horizontal position, velocity Σ wₖ vₖ; time and level are estimate 0's.
    ///
    /// The one mixture formula of ``TrackerBank`` (current, predicted and smoothed estimates).
    /// `estimate(k)` is called twice per member and nothing is allocated.
    static func mixture(count: Int, weight: (Int) -> Double, _ estimate: (Int) -> TrackEstimate) -> TrackEstimate {
        var e = estimate(0)
        var x = 0.0, y = 0.0, vx = 0.0, vy = 0.0
        for k in 0..<count {
            let m = estimate(k), w = weight(k)
            x += w * m.position.x
            y += w * m.position.y
            vx += w * m.velocity.x
            vy += w * m.velocity.y
        }
        var cxx = 0.0, cxy = 0.0, cyy = 0.0
        for k in 0..<count {
            let m = estimate(k), w = weight(k)
            let dx = m.position.x - x, dy = m.position.y - y
            cxx += w * (m.covarianceXX + dx * dx)
            cxy += w * (m.covarianceXY + dx * dy)
            cyy += w * (m.covarianceYY + dy * dy)
        }
        e.position = Point2D(x: x, y: y)
        e.velocity = Point2D(x: vx, y: vy)
        e.covarianceXX = cxx
        e.covarianceXY = cxy
        e.covarianceYY = cyy
        return e
    }
}
