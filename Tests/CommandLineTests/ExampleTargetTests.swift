import Foundation
import Testing

/// The "Using it in an app" example checks what it shows (plan in code, one configuration,
/// predictions, JSON round trips, the async face) and exits 1 when something does not hold.
@Suite("Example targets")
struct ExampleTargetTests {
    @Test("inanapp runs to the end with status 0")
    func inAnApp() throws {
        let binary = try #require(Tool.built("inanapp"), "inanapp is not built; run `swift build --build-tests` first")
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
