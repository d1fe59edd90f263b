import Foundation

/// Why GeoJSON output is not possible.
public enum GeoJSONError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The plan has no `georeference`, so plan metres cannot become longitude and latitude.
    case noGeoreference(plan: String)

    public var description: String {
        switch self {
        case .noGeoreference(let plan):
            return "GeoJSON needs WGS 84 coordinates, but the plan\(plan.isEmpty ? "" : " '\(plan)'") has no "
                + "\"georeference\" (origin latitude, longitude and the bearing of its y axis); add one, "
                + "or write csv or jsonl (plan metres)"
        }
    }
}

/// The GeoJSON (RFC 7946) pieces of a fixes FeatureCollection in WGS 84: the floor outlines as
/// Polygon features (`"kind": "outline"`), one Point feature per fix (properties as the CSV
/// columns), and, at the end, each device's track as a LineString (`"kind": "track"`).
/// Coordinates are [longitude, latitude] in degrees with 7 decimals (about 1 cm), converted by
/// the plan's `Georeference`. The tracks' coordinates are kept until the end (16 bytes a fix).
struct GeoJSONFeatures {
    let georeference: Georeference
    private var written = 0
    private var tracks: [String: [(Double, Double)]] = [:]
    private var order: [String] = []

    /// The features of `plan`; throws when it has no georeference.
    init(plan: FloorPlan) throws(GeoJSONError) {
        guard let georeference = plan.georeference else { throw .noGeoreference(plan: plan.name) }
        self.georeference = georeference
    }

    func coordinate(_ x: Double, _ y: Double) -> String {
        let c = georeference.coordinate(x: x, y: y)
        return "[" + String(format: "%.7f", c.longitude) + "," + String(format: "%.7f", c.latitude) + "]"
    }

    /// A JSON string literal.
    static func jsonString(_ text: String) -> String {
        String(decoding: (try? JSONEncoder().encode(text)) ?? Data("\"\"".utf8), as: UTF8.self)
    }

    /// The start of the next feature, up to and including `"properties":`.
    private mutating func featureStart(_ geometry: String) -> String {
        defer { written += 1 }
        return (written > 0 ? ",\n" : "") + "{\"type\":\"Feature\",\"geometry\":\(geometry),\"properties\":"
    }

    private mutating func feature(_ geometry: String, _ properties: String) -> String {
        featureStart(geometry) + properties + "}"
    }

    /// The collection's opening and the plan's floor outlines (rings closed and
    /// counter-clockwise, as RFC 7946 asks of exterior rings).
    mutating func header(plan: FloorPlan) -> String {
        var text = "{\"type\":\"FeatureCollection\",\"features\":[\n"
        for floor in plan.floors {
            guard let outline = floor.outline else { continue }
            // The plan → map transformation is a rotation with positive scales, so it keeps the
            // turning direction: counter-clockwise in the plan is counter-clockwise on the map.
            var vertices = outline.signedArea < 0 ? Array(outline.vertices.reversed()) : outline.vertices
            vertices.append(vertices[0])
            let ring = vertices.map { coordinate($0.x, $0.y) }.joined(separator: ",")
            let name = floor.name.map { ",\"name\":" + Self.jsonString($0) } ?? ""
            text += feature(
                "{\"type\":\"Polygon\",\"coordinates\":[[\(ring)]]}",
                "{\"kind\":\"outline\",\"floor\":\(floor.level)\(name)}")
        }
        return text
    }

    /// The start of a fix's Point feature, up to `"properties":`; the caller writes the
    /// properties object and the closing `}`.
    mutating func pointStart(_ report: PositionReport) -> String {
        let device = report.device ?? ""
        if tracks[device] == nil { order.append(device) }
        tracks[device, default: []].append((report.position.x, report.position.y))
        return featureStart("{\"type\":\"Point\",\"coordinates\":\(coordinate(report.position.x, report.position.y))}")
    }

    /// The tracks as LineStrings (devices with at least two fixes) and the collection's end.
    mutating func footer() -> String {
        var text = ""
        for device in order {
            guard let points = tracks[device], points.count >= 2 else { continue }
            let line = points.map { coordinate($0.0, $0.1) }.joined(separator: ",")
            text += feature(
                "{\"type\":\"LineString\",\"coordinates\":[\(line)]}",
                "{\"kind\":\"track\",\"device\":\(Self.jsonString(device))}")
        }
        return text + "\n]}\n"
    }
}
