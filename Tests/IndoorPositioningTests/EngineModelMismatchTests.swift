import Foundation
import IndoorPositioning
import TestSupport
import Testing

/// The engine on simulated walks whose signals break the plan's model the way real sites do:
/// a phone with a gain offset, time-correlated shadowing, a wrong path-loss exponent.
@Suite("Engine: device offset, correlated shadowing, wrong exponent")
struct EngineModelMismatchTests {
    static let seeds: [UInt64] = [1, 2, 3, 4]

    struct Result {
        var causal = 0.0, smoothed = 0.0, honesty = 0.0, smoothedHonesty = 0.0, worstOffsetError = 0.0
    }

    /// Means over the seeds (RMSE after the first 30 s), and the worst offset error after 60 s.
    static func run(
        _ simulation: WalkSimulator.Configuration,
        _ configuration: PositioningEngine.Configuration = PositioningEngine.Configuration()
    ) throws -> Result {
        var r = Result()
        for seed in seeds {
            let site = try SimulatedSite(seed: seed, configuration: simulation)
            let tracked = try PositioningEngine.locate(site.samples, plan: site.plan, configuration: configuration)
            let smoothed = try PositioningEngine.locate(
                site.samples, plan: site.plan, configuration: configuration,
                smooth: true)
            #expect(tracked.allSatisfy { $0.position.x.isFinite && $0.position.y.isFinite && $0.accuracy.isFinite })
            r.causal += site.rmse(tracked, from: 30)
            r.smoothed += site.rmse(smoothed, from: 30)
            r.honesty += site.honesty(tracked)
            r.smoothedHonesty += site.honesty(smoothed)
            let offsets = tracked.filter { $0.timestamp >= 60 }.compactMap(\.deviceOffset)
            #expect(!offsets.isEmpty)
            r.worstOffsetError = max(
                r.worstOffsetError, offsets.map { abs($0 - simulation.deviceOffset) }.max() ?? .infinity)
        }
        let n = Double(seeds.count)
        return Result(
            causal: r.causal / n, smoothed: r.smoothed / n, honesty: r.honesty / n,
            smoothedHonesty: r.smoothedHonesty / n, worstOffsetError: r.worstOffsetError)
    }

    static func describe(_ name: String, _ r: Result) {
        print(
            String(
                format:
                    "%@: causal %.3f m, smoothed %.3f m, honest %.0f %% / %.0f %%, worst offset error after 60 s %.2f dB",
                name, r.causal, r.smoothed, 100 * r.honesty, 100 * r.smoothedHonesty, r.worstOffsetError))
    }

    @Test(
        "A phone reading 8 dB high or low on an uncalibrated plan: RMSE within 10 % of the zero-offset walk after 30 s, offset within 1 dB after 60 s"
    )
    func deviceOffset() throws {
        let zero = try Self.run(WalkSimulator.Configuration())
        Self.describe("offset 0 dB", zero)
        for offset in [8.0, -8.0] {
            var simulation = WalkSimulator.Configuration()
            simulation.deviceOffset = offset
            let r = try Self.run(simulation)
            Self.describe(String(format: "offset %+.0f dB", offset), r)
            #expect(r.causal <= 1.10 * zero.causal)
            #expect(r.smoothed <= 1.10 * zero.smoothed)
            #expect(r.worstOffsetError <= 1)
            // Without the estimate the same walks are far off: the offset is what the model misses.
            var fixed = PositioningEngine.Configuration()
            fixed.deviceOffset = .fixed(0)
            let believed = try Self.run(simulation, fixed)
            // Measured 1.26× (1.88 against 1.50 m): each fix's centroid prior and common offset
            // already hold part of the error that a believed wrong offset causes.
            #expect(believed.causal > 1.2 * r.causal)
            // A known offset given by the user serves as well as the estimate.
            fixed.deviceOffset = .fixed(offset)
            let known = try Self.run(simulation, fixed)
            #expect(known.worstOffsetError < 1e-9)
            #expect(known.causal <= 1.10 * zero.causal)
        }
    }

    @Test("AR(1) shadowing (τ = 3 s, half the variance): the bank keeps accuracy and makes it honest")
    func correlatedShadowing() throws {
        var simulation = WalkSimulator.Configuration()
        simulation.shadowingShare = 0.5
        simulation.shadowingTime = 3
        let bank = try Self.run(simulation)
        var independent = PositioningEngine.Configuration()
        independent.shadowing = .independent
        let plain = try Self.run(simulation, independent)
        Self.describe("AR(1) shadowing, bank", bank)
        Self.describe("AR(1) shadowing, independent samples", plain)
        #expect(bank.causal <= 1.03 * plain.causal)
        // Measured 1.04× smoothed (2.24 against 2.15 m) since each fix carries a centroid prior
        // and a common offset (the causal figure is within 3 %); the honesty gain is the point.
        #expect(bank.smoothed <= 1.05 * plain.smoothed)
        #expect(bank.honesty >= plain.honesty + 0.1)
        #expect(bank.smoothedHonesty >= plain.smoothedHonesty + 0.1)
    }

    @Test("Signals with exponent 2.5 on a plan that says 2: the offset estimate absorbs most of it")
    func wrongExponent() throws {
        let clean = try Self.run(WalkSimulator.Configuration())
        var simulation = WalkSimulator.Configuration()
        simulation.trueExponent = 2.5
        let estimated = try Self.run(simulation)
        var fixed = PositioningEngine.Configuration()
        fixed.deviceOffset = .fixed(0)
        let believed = try Self.run(simulation, fixed)
        Self.describe("exponent 2.5, offset estimated", estimated)
        Self.describe("exponent 2.5, offset fixed at 0", believed)
        #expect(estimated.causal <= 1.3 * clean.causal)
        #expect(estimated.causal <= 0.5 * believed.causal)
        #expect(estimated.honesty >= 0.45)
    }
}
