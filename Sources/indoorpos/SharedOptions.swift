import ArgumentParser

/// `--plan`, the floor plan every positioning command reads (`locate`, `monitor`, `render`).
struct PlanOption: ParsableArguments {
    @Option(name: .long, help: "Floor plan JSON.")
    var plan: String
}

/// `--rssi` and `--skip-bad-rows`: the RSSI samples CSV of `locate` and `monitor`.
struct SamplesOptions: ParsableArguments {
    @Option(name: .long, help: "RSSI samples CSV.")
    var rssi: String

    @Flag(name: .long, help: "Skip malformed rows (counted on standard error) instead of stopping at the first.")
    var skipBadRows = false
}

/// `--output`: where `locate`, `monitor` and `render` write (standard output by default).
struct OutputOption: ParsableArguments {
    @Option(name: .long, help: "Write here instead of standard output (the file appears only on success).")
    var output: String?
}
