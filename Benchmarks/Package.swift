// swift-tools-version: 6.1
import PackageDescription

// Benchmarks live in their own package so that users of the library never resolve
// package-benchmark. Run from this folder: `swift package benchmark` (all), or
// `swift package benchmark --target TrackingBenchmarks`; Scripts/check-benchmark-thresholds.sh
// checks the committed allocation thresholds in Thresholds/ (AllocationCheck is a plain
// executable for valgrind, not a benchmark).
let package = Package(
    name: "IndoorPositioningBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "IndoorPositioning", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"])
    ],
    targets: [
        .target(name: "BenchmarkSupport", path: "Support"),
        .executableTarget(
            name: "TrilaterationBenchmarks",
            dependencies: [
                .product(name: "IndoorPositioning", package: "IndoorPositioning"),
                .product(name: "Benchmark", package: "benchmark"),
                "BenchmarkSupport"
            ],
            path: "Trilateration",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "TrackerAllocationCheck",
            dependencies: [.product(name: "IndoorPositioning", package: "IndoorPositioning")],
            path: "TrackerAllocationCheck"
        ),
        .executableTarget(
            name: "TrackingBenchmarks",
            dependencies: [
                .product(name: "IndoorPositioning", package: "IndoorPositioning"),
                .product(name: "Benchmark", package: "benchmark"),
                "BenchmarkSupport"
            ],
            path: "Tracking",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "RangingBenchmarks",
            dependencies: [
                .product(name: "IndoorPositioning", package: "IndoorPositioning"),
                .product(name: "Benchmark", package: "benchmark"),
                "BenchmarkSupport"
            ],
            path: "Ranging",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "PipelineBenchmarks",
            dependencies: [
                .product(name: "IndoorPositioning", package: "IndoorPositioning"),
                .product(name: "PositioningIO", package: "IndoorPositioning"),
                .product(name: "Benchmark", package: "benchmark"),
                "BenchmarkSupport"
            ],
            path: "Pipeline",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "MonitoringBenchmarks",
            dependencies: [
                .product(name: "IndoorPositioning", package: "IndoorPositioning"),
                .product(name: "Benchmark", package: "benchmark"),
                "BenchmarkSupport"
            ],
            path: "Monitoring",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        .executableTarget(
            name: "AllocationCheck",
            dependencies: [.product(name: "IndoorPositioning", package: "IndoorPositioning")],
            path: "AllocationCheck"
        )
    ],
    swiftLanguageModes: [.v6]
)
