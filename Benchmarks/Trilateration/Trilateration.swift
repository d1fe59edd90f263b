import Benchmark
import BenchmarkSupport
import Foundation
import IndoorPositioning

// Fixes in a 24 × 16 m room from 4, 8 or 16 beacons (2D: beacons at 2.6 m, receiver at 1.2 m;
// 3D: beacons at three heights), σ = 4 dB, 4 samples per beacon. The observation sets are
// generated once, before measuring; the solver and the Fix are reused, so `mallocCountTotal`
// counts the steady-state allocations of the solve itself.

/// `count` scenes of `beaconCount` beacons (4, 8 or 16) around the room; `spatial` puts the
/// beacons at three heights and the receiver anywhere between 0.5 and 2 m (3D fixes);
/// `outlier` adds +15 dB to one beacon's mean (a reflection), which the robust solver rejects.
func makeScenes(count: Int, beaconCount: Int = 8, spatial: Bool = false, outlier: Bool = false) -> [[BeaconObservation]]
{
    let perimeter: [(Double, Double)] = [
        (0.5, 0.5), (12, 0.3), (23.5, 0.5), (23.7, 8),
        (23.5, 15.5), (12, 15.7), (0.5, 15.5), (0.3, 8),
        (6, 0.4), (18, 0.4), (23.6, 4), (23.6, 12),
        (18, 15.6), (6, 15.6), (0.4, 12), (0.4, 4)
    ]
    let anchors =
        beaconCount == 4
        ? [perimeter[0], perimeter[2], perimeter[4], perimeter[6]]
        : Array(perimeter.prefix(beaconCount))
    let model = PathLossModel(measuredPower: -59, exponent: 2, sigma: 4)
    var generator = XorShiftGenerator()
    var scenes: [[BeaconObservation]] = []
    for _ in 0..<count {
        let x = 1 + 22 * generator.uniform(), y = 1 + 14 * generator.uniform()
        let z = spatial ? 0.5 + 1.5 * generator.uniform() : 1.2
        var scene: [BeaconObservation] = []
        for (k, anchor) in anchors.enumerated() {
            let height = spatial ? [0.3, 2.6, 1.4][k % 3] : 2.6
            let position = Point3D(x: anchor.0, y: anchor.1, z: height)
            let dx = x - anchor.0, dy = y - anchor.1, dz = z - height
            let d = (dx * dx + dy * dy + dz * dz).squareRoot()
            var sum = 0.0
            for _ in 0..<4 { sum += model.expectedRSSI(atDistance: d) + 4 * generator.gaussian() }
            if outlier && k == 1 { sum += 4 * 15 }
            let identity = BeaconIdentity(
                uuid: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1)),
                major: 1, minor: UInt16(k))
            scene.append(
                BeaconObservation(
                    identity: identity, position: position, level: 0, model: model,
                    meanRSSI: min(sum / 4, 0), count: 4))
        }
        scenes.append(scene)
    }
    return scenes
}

/// The committed threshold: a steady-state loop allocates nothing, but the harness itself
/// allocates about 16–24 times per measured iteration, so 50 are allowed; one allocation in
/// the loop adds 1,000 per iteration (`scalingFactor: .kilo`).
var noAllocations: [BenchmarkMetric: BenchmarkThresholds] { [.mallocCountTotal: .init(absolute: [.p90: 50])] }

/// One benchmark iteration is 1,000 fixes (`scalingFactor: .kilo`): throughput is fixes per
/// second and `mallocCountTotal` counts the allocations of 1,000 steady-state solves.
func solverBenchmark(
    _ name: String, configuration: TrilaterationSolver.Configuration,
    scenes: @escaping @Sendable () -> [[BeaconObservation]]
) {
    Benchmark(
        name,
        configuration: .init(
            metrics: [.wallClock, .throughput, .mallocCountTotal, .instructions],
            scalingFactor: .kilo, maxDuration: .seconds(2),
            maxIterations: 100_000, thresholds: noAllocations)
    ) { benchmark in
        let scenes = scenes()
        var solver = TrilaterationSolver(configuration: configuration)
        var fix = Fix(reservingCapacity: 16)
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
    let planar = TrilaterationSolver.Configuration()
    let spatial = TrilaterationSolver.Configuration(dimension: .spatial)
    // Maximum likelihood (hand-written small-matrix path, outlier test on) and range least
    // squares for 4, 8 and 16 beacons; maximum likelihood in 2D and 3D.
    for count in [4, 8, 16] {
        solverBenchmark("MaximumLikelihood2D\(count)Beacons", configuration: planar) {
            makeScenes(count: 1024, beaconCount: count)
        }
        solverBenchmark("MaximumLikelihood3D\(count)Beacons", configuration: spatial) {
            makeScenes(count: 1024, beaconCount: count, spatial: true)
        }
        solverBenchmark("RangeLeastSquares2D\(count)Beacons", configuration: .init(estimator: .rangeLeastSquares)) {
            makeScenes(count: 1024, beaconCount: count)
        }
    }
    // 8 beacons: the LAPACK paths, the outlier test off, one outlier, Gauss-Newton, an outline.
    solverBenchmark("MaximumLikelihood2D8BeaconsNoOutlierTest", configuration: .init(rejectsOutliers: false)) {
        makeScenes(count: 1024)
    }
    solverBenchmark("MaximumLikelihood2D8BeaconsDposv", configuration: .init(linearSolver: .normalEquations)) {
        makeScenes(count: 1024)
    }
    solverBenchmark("MaximumLikelihood2D8BeaconsDgels", configuration: .init(linearSolver: .householderQR)) {
        makeScenes(count: 1024)
    }
    solverBenchmark(
        "MaximumLikelihood3D8BeaconsDposv",
        configuration: .init(dimension: .spatial, linearSolver: .normalEquations)
    ) {
        makeScenes(count: 1024, spatial: true)
    }
    solverBenchmark(
        "MaximumLikelihood3D8BeaconsDgels",
        configuration: .init(dimension: .spatial, linearSolver: .householderQR)
    ) {
        makeScenes(count: 1024, spatial: true)
    }
    solverBenchmark("MaximumLikelihood2D8BeaconsOneOutlier", configuration: planar) {
        makeScenes(count: 1024, outlier: true)
    }
    solverBenchmark("MaximumLikelihood2D8BeaconsOneOutlierNoOutlierTest", configuration: .init(rejectsOutliers: false))
    {
        makeScenes(count: 1024, outlier: true)
    }
    solverBenchmark("MaximumLikelihood2D8BeaconsOneOutlierDposv", configuration: .init(linearSolver: .normalEquations))
    {
        makeScenes(count: 1024, outlier: true)
    }
    solverBenchmark("RangeLeastSquares2D8BeaconsOneOutlier", configuration: .init(estimator: .rangeLeastSquares)) {
        makeScenes(count: 1024, outlier: true)
    }
    solverBenchmark("MaximumLikelihood2D8BeaconsGaussNewton", configuration: .init(usesSecondOrder: false)) {
        makeScenes(count: 1024)
    }
    solverBenchmark(
        "MaximumLikelihood2D8BeaconsOutline",
        configuration: .init(
            outline: Polygon([
                Point2D(x: 0, y: 0), Point2D(x: 24, y: 0), Point2D(x: 24, y: 16), Point2D(x: 0, y: 16)
            ]))
    ) {
        makeScenes(count: 1024)
    }
    // Fixes the readings cannot determine (one or three beacons of the eight, the common offset
    // estimated): the posterior mean over the room's outline, as the engine reports them.
    var posterior = TrilaterationSolver.Configuration(
        outline: Polygon([Point2D(x: 0, y: 0), Point2D(x: 24, y: 0), Point2D(x: 24, y: 16), Point2D(x: 0, y: 16)]))
    posterior.commonOffsetSigma = 10
    posterior.fallback = .outlinePosterior
    for heard in [1, 3] {
        solverBenchmark("OutlinePosterior\(heard)Of8Beacons", configuration: posterior) {
            makeScenes(count: 1024).map { Array($0.prefix(heard)) }
        }
    }
    // The same with the beacons not heard as evidence (`--fallback detection-posterior`), under
    // the detection curve `locate` learned on uji-geo.
    var detection = posterior
    detection.fallback = .detectionPosterior
    detection.detection = DetectionModel(intercept: 1.2, logDistanceSlope: -0.67, offsetSlope: 0.045, scanSpread: 0.86)
    detection.detectionBeacons = makeScenes(count: 1)[0].map(\.position)
    for heard in [1, 3] {
        solverBenchmark("DetectionPosterior\(heard)Of8Beacons", configuration: detection) {
            makeScenes(count: 1024).map { Array($0.prefix(heard)) }
        }
    }
}
