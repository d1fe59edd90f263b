import BeaconModel
import Foundation
import Ranging
import TestSupport
import Testing

@testable import Trilateration

/// ``Fix/chiSquare`` and ``Fix/degreesOfFreedom``: pooled over many fixes, χ²/dof is the
/// a-posteriori variance factor, 1 when the noise is what the model says and the square of the
/// ratio when it is larger.
@Suite struct VarianceFactorTests {
    /// Pooled χ² and dof of 400 fixes in the test room, noise σ = `noise` dB drawn while the
    /// model says 4 dB.
    static func pooled(noise: Double, offsetSigma: Double? = nil) throws -> (factor: Double, dof: Int) {
        var configuration = TrilaterationSolver.Configuration(rejectsOutliers: false, outline: Scene.outline)
        configuration.commonOffsetSigma = offsetSigma
        var solver = TrilaterationSolver(configuration: configuration)
        var fix = Fix(reservingCapacity: 8)
        var g = SeededGenerator(seed: 77)
        var chi = 0.0, dof = 0
        for _ in 0..<400 {
            let truth = Scene.randomPoint(&g)
            var noisy: SeededGenerator? = g
            let drawn = PathLossModel(measuredPower: -59, exponent: 2, sigma: noise)
            var observations = Scene.observe(at: truth, model: drawn, generator: &noisy)
            g = noisy!
            for k in observations.indices { observations[k].model = Scene.model }
            try solver.solve(observations, into: &fix)
            chi += fix.chiSquare
            dof += fix.degreesOfFreedom
        }
        return (chi / Double(dof), dof)
    }

    @Test func noiseFreeFixHasNoResidual() throws {
        var solver = TrilaterationSolver(configuration: .init(rejectsOutliers: false, outline: Scene.outline))
        var fix = Fix(reservingCapacity: 8)
        try solver.solve(Scene.noiseFree(at: Point3D(x: 7, y: 5, z: Scene.receiverHeight)), into: &fix)
        #expect(fix.degreesOfFreedom == 8 - 2)
        #expect(fix.chiSquare < 1e-6)
    }

    @Test func factorIsOneWhenTheModelIsRight() throws {
        // 400 fixes × 6 dof: χ² over 2,400 dof has a relative sd of √(2/2400) ≈ 2.9 %; the
        // linearisation adds a little. ±10 % is 3.4 sd.
        let plain = try Self.pooled(noise: 4)
        #expect(plain.dof == 400 * 6)
        #expect(abs(plain.factor - 1) < 0.10, "χ²/dof \(plain.factor)")
        // With a common offset estimated one more parameter: 5 dof per fix.
        let offset = try Self.pooled(noise: 4, offsetSigma: 6)
        print(
            String(
                format: "χ²/dof: %.3f (%d dof), with a common offset %.3f (%d dof)", plain.factor, plain.dof,
                offset.factor, offset.dof))
        #expect(offset.dof == 400 * 5)
        #expect(abs(offset.factor - 1) < 0.11, "χ²/dof \(offset.factor)")
    }

    @Test func factorIsTheSquaredNoiseRatio() throws {
        // Noise 8 dB against a model of 4 dB: about 4; the larger noise bends the residuals
        // more (log-distance curvature), so ±15 %.
        let loud = try Self.pooled(noise: 8)
        print(String(format: "χ²/dof with noise twice the model's σ: %.3f", loud.factor))
        #expect(abs(loud.factor / 4 - 1) < 0.15, "χ²/dof \(loud.factor)")
    }
}
