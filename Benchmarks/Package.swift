// swift-tools-version: 6.1
import PackageDescription

// Benchmarks live in their own package so that users of the library never resolve
// package-benchmark. Run from this folder: `swift package benchmark` (all), or
// `swift package benchmark --target TrackingBenchmarks`; Scripts/check-benchmark-thresholds.sh
// checks the committed allocation thresholds in Thresholds/ (AllocationCheck is a plain
// executable for valgrind, not a benchmark).

/// A package-benchmark target: the library (and `using`, more products of the root package),
/// package-benchmark and the shared seeded generator, with the benchmark plugin.
func benchmarkTarget(_ name: String, path: String, using products: [String] = []) -> Target {
    .executableTarget(
        name: name,
        dependencies: (["IndoorPositioning"] + products).map { .product(name: $0, package: "IndoorPositioning") } + [
            .product(name: "Benchmark", package: "benchmark"), "BenchmarkSupport"
        ],
        path: path,
        plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    )
}

let package = Package(
    name: "IndoorPositioningBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "IndoorPositioning", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"])
    ],
    targets: [
        .target(name: "BenchmarkSupport", path: "Support"),
        benchmarkTarget("TrilaterationBenchmarks", path: "Trilateration"),
        .executableTarget(
            name: "TrackerAllocationCheck",
            dependencies: [.product(name: "IndoorPositioning", package: "IndoorPositioning")],
            path: "TrackerAllocationCheck"
        ),
        benchmarkTarget("TrackingBenchmarks", path: "Tracking"),
        benchmarkTarget("RangingBenchmarks", path: "Ranging"),
        benchmarkTarget("PipelineBenchmarks", path: "Pipeline", using: ["PositioningIO"]),
        benchmarkTarget("MonitoringBenchmarks", path: "Monitoring"),
        .executableTarget(
            name: "AllocationCheck",
            dependencies: [.product(name: "IndoorPositioning", package: "IndoorPositioning")],
            path: "AllocationCheck"
        )
    ],
    swiftLanguageModes: [.v6]
)
