import ArgumentParser

@main
struct IndoorPos: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "indoorpos",
        abstract: "Indoor positioning from Bluetooth beacon RSSI.",
        subcommands: [CalibrateCommand.self, DescribeCommand.self]
    )
}
