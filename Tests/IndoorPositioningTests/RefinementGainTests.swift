import Testing

@testable import IndoorPositioning

/// A refined report keeps the share of the refinement's shrinkage that its corrections earn:
/// P_f − κ (P_f − P_s), κ = Σ |δ|² / Σ tr(P_f − P_s).
@Suite("RefinementGain: the refined radius its corrections earn")
struct RefinementGainTests {
    static let causal = PositionCovariance(xx: 2, xy: 0.4, yy: 3)
    static let refined = PositionCovariance(xx: 1, xy: 0.2, yy: 2)  // claims tr(P_f − P_s) = 2 m²

    /// One refined estimate counted by `gain`: the causal one at the origin with covariance
    /// `causal`, the refined one moved to (`x`, `y`) with covariance `refined`.
    static func refine(
        _ gain: inout RefinementGain, toX x: Double, y: Double,
        causal: PositionCovariance = causal, refined: PositionCovariance = refined
    ) -> PositionCovariance {
        gain.covariance(
            causal: causal, causalPosition: Point2D(x: 0, y: 0), refined: refined,
            refinedPosition: Point2D(x: x, y: y))
    }

    @Test("corrections as large as claimed keep P_s; none keep P_f; half keep the mean of the two")
    func gain() {
        var full = RefinementGain()
        #expect(Self.refine(&full, toX: 1, y: 1) == Self.refined)
        var none = RefinementGain()
        #expect(Self.refine(&none, toX: 0, y: 0) == Self.causal)
        var half = RefinementGain()
        let p = Self.refine(&half, toX: 1, y: 0)
        #expect(abs(p.xx - 1.5) < 1e-12 && abs(p.xy - 0.3) < 1e-12 && abs(p.yy - 2.5) < 1e-12)
    }

    @Test(
        "κ runs over about 60 refined reports: a lone report without a correction after many full ones moves it little")
    func memory() {
        var gain = RefinementGain()
        for _ in 0..<200 { _ = Self.refine(&gain, toX: 1, y: 1) }
        let p = Self.refine(&gain, toX: 0, y: 0)
        // After 200 reports both sums are ≈ 60 × 2 m²; one more claim of 2 m² without a
        // correction gives κ ≈ (59 × 2)/(60 × 2) ≈ 0.983, so P_xx ≈ 1 + 0.017.
        #expect(p.xx > 1 && p.xx < 1.03)
        #expect(abs(p.yy - p.xx - 1) < 1e-9)
    }

    @Test("no claimed shrinkage, a refined covariance larger than the causal one, or non-finite input: P_s as given")
    func edges() {
        var gain = RefinementGain()
        // Nothing claimed (P_s = P_f): κ is 1 by definition and P_s is P_f anyway.
        #expect(Self.refine(&gain, toX: 3, y: 0, refined: Self.causal) == Self.causal)
        // A refined covariance larger than the causal one claims nothing (the claim is clamped
        // at 0): the refined covariance stands.
        var larger = RefinementGain()
        #expect(Self.refine(&larger, toX: 1, y: 1, causal: Self.refined, refined: Self.causal) == Self.causal)
        var nan = RefinementGain()
        #expect(Self.refine(&nan, toX: .nan, y: 0) == Self.refined)
        // The NaN counted nothing: a following full correction gives κ = 1.
        #expect(Self.refine(&nan, toX: 1, y: 1) == Self.refined)
    }
}
