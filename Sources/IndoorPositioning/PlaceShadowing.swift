import Foundation

/// The shadowing that belongs to a place rather than to a moment, and what of it a moving phone
/// still carries: the floor of the misfit's bias variance (``ModelMisfit``).
///
/// Indoor shadowing decorrelates with the distance the receiver moves, with correlation
/// exp(−Δd/d_c) (Gudmundson, *Electronics Letters* 27(23), 1991), not with time. A phone that
/// stays within d_c of one spot hears each beacon with the same error epoch after epoch, so its
/// position keeps that error however many samples it averages; a phone that walks a distance L
/// during the time its tracker's shadowing states hold an error averages the field over L, and
/// the mean of an exponentially correlated field over a segment of length L has variance
///
///     σ_f² g(L/d_c),   g(x) = 2 (x − 1 + e^{−x}) / x²
///
/// (g(0) = 1; g(x) → 2/x for x ≫ 1). Here σ_f² is the place variance learned with the models
/// (``TrafficCalibration/Result/placeShadowingVariance``: the between-cell component of the
/// residuals, cells of ``PlaceClusters/cellSize``), d_c is that cell size, and L = v τ with v the
/// tracked speed and τ the shadowing states' correlation time (`ShadowingModel.correlationTime`).
/// The per-beacon bias variance the consider term uses is then at least σ_f² g(vτ/d_c): the
/// residuals of models fitted to the same traffic cannot show the place's error, because the
/// fit took most of it up (see Docs/Reference/Tracking.md, "The radius and the models' misfit").
struct PlaceShadowing: Sendable, Hashable {
    /// σ_f², dB² (0: no floor).
    var variance: Double
    /// d_c, metres.
    var distance: Double = PlaceClusters.cellSize

    /// The bias variance a phone moving at `speed` (m/s) keeps over `time` (s), dB²:
    /// σ_f² g(speed · time / d_c); 0 for a non-finite speed or time.
    func biasVariance(speed: Double, over time: Double) -> Double {
        guard variance > 0 else { return 0 }
        let x = speed * time / distance
        guard x.isFinite, x >= 0 else { return 0 }
        return variance * Self.segmentMeanFactor(x)
    }

    /// g(x) = 2 (x − 1 + e^{−x}) / x², the variance of a unit exponentially correlated field's
    /// mean over a segment x correlation lengths long; its series 1 − x/3 + x²/12 below 10⁻³,
    /// where the closed form loses its digits to cancellation.
    static func segmentMeanFactor(_ x: Double) -> Double {
        if x < 1e-3 { return 1 - x / 3 + x * x / 12 }
        return 2 * (x - 1 + exp(-x)) / (x * x)
    }
}
