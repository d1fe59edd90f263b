// swift-tools-version: 6.1
import PackageDescription

// Module layering (see Docs/Reference/Architecture.md): arrows only point down.
//   StrictJSON → BeaconModel;  CLAPACK → LinearAlgebra (the foundation: small matrices, LAPACK, statistics)
//   BeaconModel, LinearAlgebra → Ranging → Trilateration, Tracking (side by side), Monitoring
//   → IndoorPositioning (the umbrella) → PositioningIO → Evaluation → Rendering → indoorpos
let package = Package(
    name: "IndoorPositioning",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "IndoorPositioning", targets: ["IndoorPositioning"]),
        .library(name: "PositioningIO", targets: ["PositioningIO"]),
        .executable(name: "indoorpos", targets: ["indoorpos"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.4.0")
    ],
    targets: [
        .systemLibrary(
            name: "CLAPACK",
            providers: [.apt(["liblapack-dev", "libblas-dev"])]
        ),
        // LAPACK and BLAS: the reference libraries on Linux (apt: liblapack-dev, libblas-dev),
        // the Accelerate framework on Apple platforms, which exports the same Fortran-convention
        // routines that CLAPACK.h declares.
        .target(
            name: "LinearAlgebra",
            dependencies: ["CLAPACK"],
            linkerSettings: [
                .linkedLibrary("lapack", .when(platforms: [.linux])),
                .linkedLibrary("blas", .when(platforms: [.linux])),
                .linkedFramework("Accelerate", .when(platforms: [.macOS, .iOS, .macCatalyst]))
            ]
        ),
        .target(name: "StrictJSON"),
        .target(name: "BeaconModel", dependencies: ["StrictJSON"]),
        .target(name: "Ranging", dependencies: ["BeaconModel", "LinearAlgebra"]),
        .target(name: "Trilateration", dependencies: ["BeaconModel", "Ranging", "LinearAlgebra"]),
        .target(name: "Tracking", dependencies: ["BeaconModel", "Ranging", "LinearAlgebra"]),
        .target(name: "Monitoring", dependencies: ["StrictJSON", "BeaconModel", "Ranging"]),
        .target(
            name: "IndoorPositioning",
            dependencies: [
                "StrictJSON", "BeaconModel", "LinearAlgebra", "Ranging", "Trilateration", "Tracking", "Monitoring"
            ]
        ),
        .target(name: "PositioningIO", dependencies: ["IndoorPositioning"]),
        .target(name: "Evaluation", dependencies: ["PositioningIO"]),
        .target(name: "Rendering", dependencies: ["Evaluation"]),
        .executableTarget(
            name: "indoorpos",
            dependencies: [
                "PositioningIO",
                "Rendering",
                .product(name: "ArgumentParser", package: "swift-argument-parser")
            ]
        ),
        .executableTarget(
            name: "quickstart",
            dependencies: ["PositioningIO"],
            path: "Docs/Examples/QuickStart"
        ),
        .executableTarget(
            name: "inanapp",
            dependencies: ["IndoorPositioning"],
            path: "Docs/Examples/InAnApp"
        ),
        .target(name: "TestSupport", dependencies: ["BeaconModel", "Ranging"], path: "Tests/TestSupport"),
        .testTarget(name: "LinearAlgebraTests", dependencies: ["LinearAlgebra", "TestSupport"]),
        .testTarget(name: "StrictJSONTests", dependencies: ["StrictJSON"]),
        .testTarget(
            name: "BeaconModelTests",
            dependencies: ["BeaconModel", "TestSupport"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(name: "RangingTests", dependencies: ["Ranging", "TestSupport"]),
        .testTarget(name: "PositioningIOTests", dependencies: ["PositioningIO", "TestSupport"]),
        // Runs the built `indoorpos` (and the example executables) as a subprocess.
        .testTarget(name: "CommandLineTests", dependencies: ["PositioningIO", "TestSupport"]),
        .testTarget(name: "TrilaterationTests", dependencies: ["Trilateration", "TestSupport"]),
        .testTarget(name: "TrackingTests", dependencies: ["Tracking", "TestSupport"]),
        .testTarget(name: "MonitoringTests", dependencies: ["Monitoring", "TestSupport"]),
        .testTarget(
            name: "EvaluationTests",
            dependencies: ["Rendering", "TestSupport"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "IndoorPositioningTests",
            dependencies: ["IndoorPositioning", "PositioningIO", "TestSupport"]
        )
    ],
    swiftLanguageModes: [.v6]
)

// The CoreLocation adapter exists only on Apple hosts, so `swift build` on Linux never compiles
// it. Nothing in it has been compiled by the project's own checks (they run on Linux).
#if canImport(Darwin)
package.products.append(.library(name: "IndoorPositioningCoreLocation", targets: ["IndoorPositioningCoreLocation"]))
package.targets.append(.target(name: "IndoorPositioningCoreLocation", dependencies: ["IndoorPositioning"]))
#endif
