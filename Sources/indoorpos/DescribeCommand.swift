import ArgumentParser
import PositioningIO

/// `indoorpos describe --plan P`: loads a floor plan and prints a summary of it.
struct DescribeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "describe", abstract: "Load a floor plan and print what it holds.")

    @Option(name: .long, help: "Floor plan JSON file.")
    var plan: String

    func run() throws {
        let loaded = try ToolErrors.run { try FloorPlan.load(path: plan) }
        print("\(loaded.name): \(loaded.floors.count) floor(s), \(loaded.beaconCount) beacon(s)")
        for floor in loaded.floors {
            let area = floor.outline.map { String(format: ", %.1f m²", $0.area) } ?? ""
            print("  level \(floor.level) at \(floor.elevation) m\(area): \(floor.beacons.count) beacon(s), \(floor.zones.count) zone(s)")
        }
    }
}
