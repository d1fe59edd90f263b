/// The version `indoorpos --version` prints; CHANGELOG.md lists what each version holds.
enum ToolVersion {
    static let current = "0.1.0"
}
