import ArgumentParser

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
}
