import Foundation
import Testing

/// Runs the built `indoorpos` binary (built by `swift build --build-tests`, next to the test bundle).
enum Tool {
    static var binary: URL? { built("indoorpos") }

    /// The executable product `name` of this build: beside the test executable first (the build
    /// folder of this build, whatever its path: `--build-path .build-thread` for the sanitizer
    /// runs), then beside the test bundle, then in `.build/debug`; nil when none is built.
    static func built(_ name: String) -> URL? {
        var candidates: [URL] = []
        if let executable = CommandLine.arguments.first, executable.hasSuffix(".xctest") {
            candidates.append(URL(fileURLWithPath: executable).deletingLastPathComponent().appendingPathComponent(name))
        }
        if let bundle = Bundle.allBundles.first(where: { $0.bundlePath.hasSuffix(".xctest") }) {
            candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent(name))
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        candidates.append(root.appendingPathComponent(".build/debug/\(name)"))
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    static var sharedData: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/data")
    }

    /// Runs the built `indoorpos` with `arguments`, `environment` added to this process's, and
    /// `input`'s bytes on standard input when given, in `directory` (this process's when nil);
    /// standard output and error are read while it runs, so that neither pipe fills.
    static func run(
        _ arguments: [String], input: Data? = nil, environment: [String: String] = [:], directory: URL? = nil
    ) throws -> (status: Int32, stdout: String, stderr: String) {
        guard let binary else {
            Issue.record("indoorpos is not built; run `swift build --build-tests` first")
            return (-1, "", "")
        }
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        if let directory { process.currentDirectoryURL = directory }
        let stdin = Pipe(), out = Pipe(), err = Pipe()
        if input != nil { process.standardInput = stdin }
        process.standardOutput = out
        process.standardError = err
        try process.run()
        nonisolated(unsafe) var outData = Data(), errData = Data()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { outData = out.fileHandleForReading.readDataToEndOfFile() }
        DispatchQueue.global().async(group: group) { errData = err.fileHandleForReading.readDataToEndOfFile() }
        if let input {
            DispatchQueue.global().async(group: group) {
                stdin.fileHandleForWriting.write(input)
                try? stdin.fileHandleForWriting.close()
            }
        }
        process.waitUntilExit()
        group.wait()
        return (
            process.terminationStatus, String(decoding: outData, as: UTF8.self),
            String(decoding: errData, as: UTF8.self)
        )
    }
}
