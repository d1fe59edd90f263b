import Foundation
import StrictJSON

/// A node of a floor-plan document: the strict JSON reader's node (``StrictJSON``'s
/// `JSONNode`) with its errors as ``FloorPlanError``s, and the plan's own shapes (points and
/// polygons).
struct PlanNode {
    /// The JSON node.
    let json: JSONNode

    /// The document `data` parsed strictly (duplicate keys, nesting depth, trailing text).
    /// - Throws: ``FloorPlanError/malformedJSON(detail:)`` with line and column.
    static func parse(_ data: Data) throws(FloorPlanError) -> PlanNode {
        do {
            return PlanNode(json: JSONNode(value: try JSONParser.parse(Array(data)), path: ""))
        } catch {
            throw FloorPlanError(error)
        }
    }

    /// Dotted path with `[i]` indices; empty for the top level.
    var path: String { json.path }
    /// The value as written, for messages.
    var literal: String { json.literal }

    /// Runs one accessor of the JSON node, its error as a ``FloorPlanError``.
    private func read<T>(_ accessor: (JSONNode) throws(JSONError) -> T) throws(FloorPlanError) -> T {
        do { return try accessor(json) } catch { throw FloorPlanError(error) }
    }

    func object() throws(FloorPlanError) -> PlanObjectNode {
        PlanObjectNode(json: try read { n throws(JSONError) in try n.object() })
    }
    func array(of what: String = "an array […]") throws(FloorPlanError) -> [PlanNode] {
        try read { n throws(JSONError) in try n.array(of: what) }.map(PlanNode.init)
    }
    func string() throws(FloorPlanError) -> String { try read { n throws(JSONError) in try n.string() } }
    func double() throws(FloorPlanError) -> Double { try read { n throws(JSONError) in try n.double() } }
    func double(in range: ClosedRange<Double>, unit: String = "") throws(FloorPlanError) -> Double {
        try read { n throws(JSONError) in try n.double(in: range, unit: unit) }
    }
    func integer(in range: ClosedRange<Int>) throws(FloorPlanError) -> Int {
        try read { n throws(JSONError) in try n.integer(in: range) }
    }
    func uuid() throws(FloorPlanError) -> UUID { try read { n throws(JSONError) in try n.uuid() } }

    /// A point `[x, y]` of two finite numbers, metres.
    func point() throws(FloorPlanError) -> Point2D {
        let what = "a point [x, y] of two numbers"
        let coordinates = try array(of: what)
        guard coordinates.count == 2 else { throw FloorPlanError(json.mismatch(what)) }
        return Point2D(x: try coordinates[0].double(), y: try coordinates[1].double())
    }

    /// A polygon `[[x, y], …]`. The vertex count and simplicity are checked by plan validation.
    func polygon() throws(FloorPlanError) -> Polygon {
        var vertices: [Point2D] = []
        for node in try array(of: "a polygon [[x, y], …]") { vertices.append(try node.point()) }
        return Polygon(vertices)
    }
}

/// An object node of a floor-plan document: members by key, with paths.
struct PlanObjectNode {
    /// The JSON object node.
    let json: JSONObjectNode

    /// The keys present.
    var keys: Dictionary<String, JSONValue>.Keys { json.members.keys }

    /// The member `key`; missing or `null` is ``FloorPlanError/missingKey(path:)``.
    func required(_ key: String) throws(FloorPlanError) -> PlanNode {
        do { return PlanNode(json: try json.required(key)) } catch { throw FloorPlanError(error) }
    }

    /// The member `key`, or nil when it is missing or `null` (an optional key left out).
    func optional(_ key: String) -> PlanNode? { json.optional(key).map(PlanNode.init) }

    /// The path of member `key`.
    func path(for key: String) -> String { json.node.path(for: key) }
}
