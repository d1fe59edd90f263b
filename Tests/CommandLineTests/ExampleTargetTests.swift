import Foundation
import Testing

/// The "Using it in an app" example checks what it shows (plan in code, one configuration,
/// predictions, JSON round trips, the async face) and exits 1 when something does not hold.
@Suite("Example targets")
struct ExampleTargetTests {
    @Test("inanapp runs to the end with status 0")
    func inAnApp() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        var candidates: [URL] = []
        // Beside the test executable first: the build folder of this build, whatever its path.
        if let executable = CommandLine.arguments.first, executable.hasSuffix(".xctest") {
            candidates.append(
                URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent("inanapp"))
        }
        if let bundle = Bundle.allBundles.first(where: { $0.bundlePath.hasSuffix(".xctest") }) {
            candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("inanapp"))
        }
        candidates.append(root.appendingPathComponent(".build/debug/inanapp"))
        let binary = try #require(
            candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) },
            "inanapp is not built; run `swift build --build-tests` first")
        let process = Process()
        process.executableURL = binary
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(stderr)")
        #expect(stdout.contains("predicted") && stdout.contains("async: 10 reports"))
    }
}
