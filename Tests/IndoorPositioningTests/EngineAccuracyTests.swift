import Foundation
import IndoorPositioning
import TestSupport
import Testing

/// The engine's accuracy and honesty, measured through the whole engine (samples in, reports out) on
/// seeded 5-minute walks (8 beacons in 24 × 16 m, σ = 4 dB, 4 samples/s per beacon), beside two
/// baselines on the same samples: the common pipeline (window mean → ranges → unweighted least
/// squares → Kalman filter on the fixes, about 2.0 m here, what a typical deployment gets) and a stronger
/// variant of it whose least squares weights each range by its modelled variance.
@Suite("Engine accuracy on simulated walks")
struct EngineAccuracyTests {
    static let seeds: [UInt64] = [1, 2, 3, 4, 5, 6, 7, 8]

    struct Means {
        var common = 0.0, weighted = 0.0, causal = 0.0, smoothed = 0.0, honesty = 0.0
    }

    static func baselineRMSE(_ site: SimulatedSite, weighted: Bool) -> Double {
        let c = site.walk.configuration
        var pipeline = CommonPipeline(beacons: site.walk.beacons, model: c.model, receiverHeight: c.receiverHeight)
        pipeline.unweighted = !weighted
        return site.rmse(
            pipeline.run(site.walk).outputs.map {
                PositionReport(
                    timestamp: $0.time, device: nil, position: Point3D($0.position, z: 0), level: 0,
                    accuracy: 0, zone: nil, source: .tracked, beaconCount: 0)
            })
    }

    @Test("causal ≤ 1.8 m and ≤ 0.85 × common; RTS ≤ 1.2 m and ≤ 0.6 × common; accuracy honest (55–80 %)")
    func accuracyAndHonesty() throws {
        var m = Means()
        for seed in Self.seeds {
            let site = try SimulatedSite(seed: seed)
            let tracked = try PositioningEngine.locate(site.samples, plan: site.plan)
            let rts = try PositioningEngine.locate(site.samples, plan: site.plan, smooth: true)
            #expect(tracked.allSatisfy { $0.position.x.isFinite && $0.position.y.isFinite && $0.accuracy.isFinite })
            #expect(rts.allSatisfy { $0.source == .smoothed || $0.source == .fix })
            let common = Self.baselineRMSE(site, weighted: false)
            let weighted = Self.baselineRMSE(site, weighted: true)
            print(
                String(
                    format:
                        "engine seed %llu: common %.3f m, weighted %.3f m, causal %.3f m, RTS %.3f m, honest %.0f %%",
                    seed, common, weighted, site.rmse(tracked), site.rmse(rts), 100 * site.honesty(tracked)))
            m.common += common
            m.weighted += weighted
            m.causal += site.rmse(tracked)
            m.smoothed += site.rmse(rts)
            m.honesty += site.honesty(tracked)
        }
        let n = Double(Self.seeds.count)
        m = Means(
            common: m.common / n, weighted: m.weighted / n, causal: m.causal / n,
            smoothed: m.smoothed / n, honesty: m.honesty / n)
        print(
            String(
                format:
                    "engine MEAN: common %.3f m, weighted %.3f m, causal %.3f m (%.2f× common, %.2f× weighted), RTS %.3f m (%.2f× common, %.2f× weighted), honest %.0f %%",
                m.common, m.weighted, m.causal, m.causal / m.common, m.causal / m.weighted,
                m.smoothed, m.smoothed / m.common, m.smoothed / m.weighted, 100 * m.honesty))
        #expect(m.causal <= 1.8)
        #expect(m.causal <= 0.85 * m.common)
        #expect(m.smoothed <= 1.2)
        #expect(m.smoothed <= 0.6 * m.common)
        #expect(m.honesty >= 0.55 && m.honesty <= 0.80)
        // Against the stronger, variance-weighted baseline: smoothing wins clearly and the causal
        // track stays level with it (it is at the causal Cramér–Rao limit, see Docs/Evidence/TrackingStudies.md).
        #expect(m.smoothed <= 0.6 * m.weighted)
        #expect(m.causal <= 1.08 * m.weighted)
    }
}
