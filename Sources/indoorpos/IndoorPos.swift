import ArgumentParser
import Foundation
import PositioningIO

@main
struct IndoorPos: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "indoorpos",
        abstract: "Indoor positioning from Bluetooth beacon RSSI.",
        version: ToolVersion.current,
        subcommands: [
            LocateCommand.self, CalibrateCommand.self, DescribeCommand.self, MonitorCommand.self,
            EvaluateCommand.self, RenderCommand.self
        ]
    )

    /// Parses and runs as ArgumentParser does, except that a usage error (a missing or unknown
    /// option, a value that does not parse, a refused combination) is one line on standard
    /// error, like every other error: "indoorpos locate: <problem> (see 'indoorpos locate
    /// --help')", exit status 64. Help and version requests print as usual.
    static func main() {
        // Before any thread starts, so that every thread blocks the signals it takes.
        PartialFiles.shared.install()
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch {
            let code = exitCode(for: error)
            let message = self.message(for: error)
            guard code != .success, !message.isEmpty, !(error is ExitCode) else { exit(withError: error) }
            let subcommand = configuration.subcommands.map { $0.configuration.commandName ?? "" }
                .first { $0 == arguments.first }
            let name = subcommand.map { "indoorpos \($0)" } ?? "indoorpos"
            let line = message.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty }.joined(separator: "; ").escapingControlCharacters
            FileHandle.standardError.write(Data("\(name): \(line) (see '\(name) --help')\n".utf8))
            Foundation.exit(code.rawValue)
        }
    }
}
