import Foundation
import StrictJSON

/// `Codable` through the plan's own JSON format (`FORMATS.md`), so that a plan has one JSON
/// shape whether it is saved with ``FloorPlan/save(to:)`` or embedded in a document of yours
/// with `JSONEncoder`. Decoding is as strict as ``FloorPlan/init(jsonData:)``: a bad plan is a
/// `DecodingError.dataCorrupted` whose description is the ``FloorPlanError`` message, with the
/// path inside the plan (for example `floors[0].beacons[2].major: 70000 is out of range
/// 0...65535`).
extension FloorPlan: Codable {
    public init(from decoder: any Decoder) throws {
        let value = try JSONValue.Coded(from: decoder).value
        do {
            self = try FloorPlan(jsonData: Data(JSONWriter.write(value)))
        } catch {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: error.description, underlyingError: error))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        try JSONValue.Coded(jsonValue).encode(to: encoder)
    }
}
