import Foundation

@testable import BeaconModel

/// Plans used by the JSON tests: a two-floor document written by hand, and the fixtures.
enum SamplePlans {
    /// Two floors (levels 0 and 1, elevation 3.5 m), zones on both, five beacons; the last
    /// beacon of floor 1 has its own path-loss values, the others take the defaults.
    static let twoFloors = #"""
        {
          "formatVersion": 1,
          "name": "Test office",
          "defaults": { "measuredPower": -59, "pathLossExponent": 2, "receiverHeight": 1.2 },
          "floors": [
            {
              "level": 0, "name": "Ground floor", "elevation": 0, "outline": [[0, 0], [20, 0], [20, 15], [0, 15]],
              "zones": [ { "id": "lobby", "name": "Lobby", "polygon": [[0, 0], [6, 0], [6, 5], [0, 5]] } ],
              "beacons": [
                { "uuid": "F7826DA6-4FA2-4E98-8024-BC5B71E0893E", "major": 1, "minor": 7, "x": 1.0, "y": 2.0, "z": 2.6 }
              ]
            },
            {
              "level": 1, "elevation": 3.5,
              "outline": [[0, 0], [20, 0], [20, 15], [0, 15]],
              "zones": [
                { "id": "hall", "polygon": [[0, 0], [4, 0], [4, 4], [0, 4]] },
                { "id": "office", "name": "Office", "polygon": [[5, 5], [9, 5], [9, 9], [5, 9]] }
              ],
              "beacons": [
                { "uuid": "F7826DA6-4FA2-4E98-8024-BC5B71E0893E", "major": 2, "minor": 1, "x": 3, "y": 3 },
                { "uuid": "F7826DA6-4FA2-4E98-8024-BC5B71E0893E", "major": 2, "minor": 2, "x": 10, "y": 3 },
                { "uuid": "F7826DA6-4FA2-4E98-8024-BC5B71E0893E", "major": 2, "minor": 3, "x": 10, "y": 12 },
                { "uuid": "F7826DA6-4FA2-4E98-8024-BC5B71E0893E", "major": 2, "minor": 4, "x": 3, "y": 12,
                  "measuredPower": -61.5, "pathLossExponent": 1.8 }
              ]
            }
          ]
        }
        """#

    /// `twoFloors` with `target` replaced by `replacement`; `target` must occur exactly once.
    static func twoFloors(replacing target: String, with replacement: String) -> String {
        precondition(twoFloors.components(separatedBy: target).count == 2, "\(target) must occur once")
        return twoFloors.replacingOccurrences(of: target, with: replacement)
    }

    /// A fixture file's bytes (`Fixtures/<name>`).
    static func fixture(_ name: String) throws -> Data {
        guard let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures") else {
            throw CocoaError(.fileReadNoSuchFile)
        }
        return try Data(contentsOf: url)
    }

    /// The package root, found from this source file's path.
    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }
}
