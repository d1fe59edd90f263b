// swift-tools-version: 6.1
import PackageDescription

// libFuzzer targets, in their own package so that the library's users and its normal build
// never see them. Build and run one with `Scripts/fuzz.sh TARGET SECONDS` (it passes
// -sanitize=fuzzer,address to every module). SwiftPM links executables with `main` aliased to
// `<Module>_main`, so each target is built with `-parse-as-library`, defines `<Module>_main`
// itself and hands its `LLVMFuzzerTestOneInput` to libFuzzer's `LLVMFuzzerRunDriver`.
// gold stops with an internal error on these objects; lld (shipped with Swift) links them.
let fuzzTarget: [SwiftSetting] = [.unsafeFlags(["-parse-as-library"])]
let fuzzLink: [LinkerSetting] = [.unsafeFlags(["-use-ld=lld"])]

let package = Package(
    name: "IndoorPositioningFuzz",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "IndoorPositioning", path: "..")
    ],
    targets: [
        .target(name: "CFuzzerDriver"),
        .target(
            name: "FuzzSupport",
            dependencies: ["CFuzzerDriver", .product(name: "IndoorPositioning", package: "IndoorPositioning")]),
        .executableTarget(
            name: "FuzzFloorPlan", dependencies: ["FuzzSupport"], swiftSettings: fuzzTarget, linkerSettings: fuzzLink),
        .executableTarget(
            name: "FuzzRSSICSV",
            dependencies: ["FuzzSupport", .product(name: "PositioningIO", package: "IndoorPositioning")],
            swiftSettings: fuzzTarget, linkerSettings: fuzzLink),
        .executableTarget(
            name: "FuzzCSVFile",
            dependencies: ["FuzzSupport", .product(name: "PositioningIO", package: "IndoorPositioning")],
            swiftSettings: fuzzTarget, linkerSettings: fuzzLink),
        .executableTarget(
            name: "FuzzCalibrationCSV",
            dependencies: ["FuzzSupport", .product(name: "PositioningIO", package: "IndoorPositioning")],
            swiftSettings: fuzzTarget, linkerSettings: fuzzLink),
        .executableTarget(
            name: "FuzzCalibrationJSON",
            dependencies: ["FuzzSupport", .product(name: "PositioningIO", package: "IndoorPositioning")],
            swiftSettings: fuzzTarget, linkerSettings: fuzzLink),
        .executableTarget(
            name: "FuzzSolver", dependencies: ["FuzzSupport"], swiftSettings: fuzzTarget, linkerSettings: fuzzLink),
        .executableTarget(
            name: "FuzzTracker", dependencies: ["FuzzSupport"], swiftSettings: fuzzTarget, linkerSettings: fuzzLink),
        .executableTarget(
            name: "FuzzTrackerBank", dependencies: ["FuzzSupport"], swiftSettings: fuzzTarget, linkerSettings: fuzzLink),
        .executableTarget(
            name: "FuzzEngine", dependencies: ["FuzzSupport"], swiftSettings: fuzzTarget, linkerSettings: fuzzLink),
        // Fuzzes the regions JSON once the Monitoring module is in the package (a stub before).
        .executableTarget(
            name: "FuzzRegions", dependencies: ["FuzzSupport"], swiftSettings: fuzzTarget, linkerSettings: fuzzLink)
    ],
    swiftLanguageModes: [.v6]
)
