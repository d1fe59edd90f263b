import Benchmark
import IndoorPositioning

// 2D fixes from 8 beacons in a 24 × 16 m room (beacons at 2.6 m, receiver at 1.2 m),
// σ = 4 dB, 4 samples per beacon: one iteration of each benchmark is one fix. The
// observation sets are generated once, before measuring; the solver and the Fix are reused,
// so `mallocCountTotal` counts the steady-state allocations of the solve itself.

/// A small xorshift generator so that the scenes are the same on every run.
struct SceneGenerator {
    var state: UInt64
    mutating func uniform() -> Double {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return Double(state >> 11) / Double(1 << 53)
    }
    mutating func gaussian() -> Double {
        let u = max(uniform(), 1e-300), v = uniform()
        return (-2 * Foundation.log(u)).squareRoot() * Foundation.cos(2 * Double.pi * v)
    }
}

import Foundation

func makeScenes(count: Int) -> [[BeaconObservation]] {
    let anchors: [(Double, Double)] = [(0.5, 0.5), (12, 0.3), (23.5, 0.5), (23.7, 8),
                                       (23.5, 15.5), (12, 15.7), (0.5, 15.5), (0.3, 8)]
    let model = PathLossModel(measuredPower: -59, exponent: 2, sigma: 4)
    var generator = SceneGenerator(state: 0x9E37_79B9_7F4A_7C15)
    var scenes: [[BeaconObservation]] = []
    for _ in 0..<count {
        let x = 1 + 22 * generator.uniform(), y = 1 + 14 * generator.uniform()
        var scene: [BeaconObservation] = []
        for (k, anchor) in anchors.enumerated() {
            let position = Point3D(x: anchor.0, y: anchor.1, z: 2.6)
            let dx = x - anchor.0, dy = y - anchor.1, dz = 1.2 - 2.6
            let d = (dx * dx + dy * dy + dz * dz).squareRoot()
            var sum = 0.0
            for _ in 0..<4 { sum += model.expectedRSSI(atDistance: d) + 4 * generator.gaussian() }
            let identity = BeaconIdentity(uuid: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1)),
                                          major: 1, minor: UInt16(k))
            scene.append(BeaconObservation(identity: identity, position: position, level: 0, model: model,
                                           meanRSSI: min(sum / 4, 0), count: 4))
        }
        scenes.append(scene)
    }
    return scenes
}

/// The scenes every benchmark solves, generated once.
let scenes = makeScenes(count: 1024)

/// One benchmark iteration is 1,000 fixes (`scalingFactor: .kilo`): throughput is fixes per
/// second and `mallocCountTotal` counts the allocations of 1,000 steady-state solves.
func solverBenchmark(_ name: String, configuration: TrilaterationSolver.Configuration) {
    Benchmark(name, configuration: .init(metrics: [.wallClock, .throughput, .mallocCountTotal, .instructions],
                                         scalingFactor: .kilo, maxDuration: .seconds(3),
                                         maxIterations: 100_000)) { benchmark in
        var solver = TrilaterationSolver(configuration: configuration)
        var fix = Fix(reservingCapacity: 8)
        // Warm the workspace so the measured loop sees steady state.
        for scene in scenes.prefix(16) { try? solver.solve(scene, into: &fix) }
        benchmark.startMeasurement()
        for iteration in benchmark.scaledIterations {
            try? solver.solve(scenes[iteration & 1023], into: &fix)
            blackHole(fix.position.x)
        }
        benchmark.stopMeasurement()
    }
}

let benchmarks: @Sendable () -> Void = {
    solverBenchmark("MaximumLikelihood2D8Beacons", configuration: .init())
    solverBenchmark("MaximumLikelihood2D8BeaconsNoOutlierTest", configuration: .init(rejectsOutliers: false))
    solverBenchmark("MaximumLikelihood2D8BeaconsDposv", configuration: .init(linearSolver: .normalEquations))
    solverBenchmark("MaximumLikelihood2D8BeaconsDgels", configuration: .init(linearSolver: .householderQR))
    solverBenchmark("RangeLeastSquares2D8Beacons", configuration: .init(estimator: .rangeLeastSquares))
    solverBenchmark("MaximumLikelihood2D8BeaconsGaussNewton", configuration: .init(usesSecondOrder: false))
    solverBenchmark("MaximumLikelihood2D8BeaconsOutline", configuration: .init(outline: Polygon([
        Point2D(x: 0, y: 0), Point2D(x: 24, y: 0), Point2D(x: 24, y: 16), Point2D(x: 0, y: 16)])))
}
