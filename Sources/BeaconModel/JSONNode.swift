import Foundation

/// A JSON value together with its path in the document (`floors[1].beacons[3].major`), with
/// typed accessors that throw ``FloorPlanError`` naming that path and the value as written.
struct JSONNode {
    /// The value at ``path``.
    let value: JSONValue
    /// Dotted path with `[i]` indices; empty for the top level.
    let path: String

    /// The member `key` of this object node's path.
    func path(for key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// The object's members by key (the parser guarantees unique keys).
    func object() throws(FloorPlanError) -> JSONObjectNode {
        guard case .object(let members) = value else { throw mismatch("an object {…}") }
        var dictionary: [String: JSONValue] = [:]
        for member in members { dictionary[member.key] = member.value }
        return JSONObjectNode(members: dictionary, node: self)
    }

    /// The array's elements with their indexed paths.
    func array(of what: String = "an array […]") throws(FloorPlanError) -> [JSONNode] {
        guard case .array(let elements) = value else { throw mismatch(what) }
        return elements.enumerated().map { JSONNode(value: $1, path: "\(path)[\($0)]") }
    }

    /// A string.
    func string() throws(FloorPlanError) -> String {
        guard case .string(let s) = value else { throw mismatch("a string") }
        return s
    }

    /// A finite number. A literal too large for a `Double` (`1e400`) is ``FloorPlanError/nonFinite(path:value:)``.
    func double() throws(FloorPlanError) -> Double {
        guard case .number(let text) = value else { throw mismatch("a number") }
        guard let number = Double(text) else { throw mismatch("a number") }
        guard number.isFinite else { throw .nonFinite(path: path, value: text) }
        return number
    }

    /// A finite number within `range`; `unit` follows the range in the message (for example "dBm").
    func double(in range: ClosedRange<Double>, unit: String = "") throws(FloorPlanError) -> Double {
        let number = try double()
        guard range.contains(number) else {
            throw .outOfRange(path: path, value: literal,
                              range: "\(format(range.lowerBound))...\(format(range.upperBound))" + (unit.isEmpty ? "" : " \(unit)"))
        }
        return number
    }

    /// An integer within `range`. `1.0` is accepted as 1; `1.5` is a wrong type; `70000` for a
    /// major is out of range.
    func integer(in range: ClosedRange<Int>) throws(FloorPlanError) -> Int {
        guard case .number(let text) = value, let number = Double(text) else { throw mismatch("an integer") }
        guard number.isFinite else { throw .nonFinite(path: path, value: text) }
        guard number.rounded() == number else { throw mismatch("an integer") }
        guard number >= Double(range.lowerBound), number <= Double(range.upperBound) else {
            throw .outOfRange(path: path, value: text, range: "\(range.lowerBound)...\(range.upperBound)")
        }
        return Int(number)
    }

    /// A UUID string, upper or lower case.
    func uuid() throws(FloorPlanError) -> UUID {
        let text = try string()
        guard let uuid = UUID(uuidString: text) else { throw .malformedUUID(path: path, value: text) }
        return uuid
    }

    /// A point `[x, y]` of two finite numbers, metres.
    func point() throws(FloorPlanError) -> Point2D {
        let what = "a point [x, y] of two numbers"
        let coordinates = try array(of: what)
        guard coordinates.count == 2 else { throw mismatch(what) }
        return Point2D(x: try coordinates[0].double(), y: try coordinates[1].double())
    }

    /// A polygon `[[x, y], …]`. The vertex count and simplicity are checked by plan validation.
    func polygon() throws(FloorPlanError) -> Polygon {
        var vertices: [Point2D] = []
        for node in try array(of: "a polygon [[x, y], …]") { vertices.append(try node.point()) }
        return Polygon(vertices)
    }

    /// The value as written, for messages.
    var literal: String { value.summary }

    private func mismatch(_ expected: String) -> FloorPlanError {
        .wrongType(path: path, expected: expected, found: value.summary)
    }

    private func format(_ bound: Double) -> String {
        bound.rounded() == bound && abs(bound) < 1e15 ? String(Int(bound)) : bound.description
    }
}

/// An object node: looks up members by key, with paths.
struct JSONObjectNode {
    /// Members by key.
    let members: [String: JSONValue]
    /// The object itself.
    let node: JSONNode

    /// The member `key`; missing or `null` is ``FloorPlanError/missingKey(path:)``.
    func required(_ key: String) throws(FloorPlanError) -> JSONNode {
        guard let value = members[key] else { throw .missingKey(path: node.path(for: key)) }
        if case .null = value { throw .missingKey(path: node.path(for: key)) }
        return JSONNode(value: value, path: node.path(for: key))
    }

    /// The member `key`, or nil when it is missing or `null` (an optional key left out).
    func optional(_ key: String) -> JSONNode? {
        guard let value = members[key] else { return nil }
        if case .null = value { return nil }
        return JSONNode(value: value, path: node.path(for: key))
    }
}
