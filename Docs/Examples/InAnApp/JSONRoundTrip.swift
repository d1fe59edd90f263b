// Every public report type to JSON and back.
import Foundation
import IndoorPositioning

enum JSONRoundTrip {
    struct Mismatch: Error, CustomStringConvertible {
        var type: String
        var description: String { "\(type) changed in a JSON round trip" }
    }

    static func check<T: Codable & Equatable>(_ value: T) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(value)
        guard try JSONDecoder().decode(T.self, from: data) == value else { throw Mismatch(type: "\(T.self)") }
        return data
    }

    /// Encodes and decodes the plan, samples, fixes, tracker estimates, reports and the engine's
    /// statistics; returns one report's JSON to show.
    static func run(
        plan: FloorPlan, samples: [RSSISample], fix: Fix, estimate: TrackEstimate,
        reports: [PositionReport], statistics: PositioningEngine.Statistics
    ) throws -> String {
        _ = try check(plan)
        _ = try check(statistics)
        _ = try check(samples)
        _ = try check(fix)
        _ = try check(estimate)
        _ = try check(reports)
        _ = try check(reports.map(\.ellipse))
        _ = try check(fix.covariance)
        return String(decoding: try check(reports.last!), as: UTF8.self)
    }
}
