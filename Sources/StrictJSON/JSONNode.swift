import Foundation

/// A JSON value together with its path in the document (`floors[1].beacons[3].major`), with
/// typed accessors that throw ``JSONError`` naming that path and the value as written.
package struct JSONNode {
    /// The value at ``path``.
    package let value: JSONValue
    /// Dotted path with `[i]` indices; empty for the top level.
    package let path: String

    /// The value `value` at `path`.
    package init(value: JSONValue, path: String) {
        self.value = value
        self.path = path
    }

    /// The member `key` of this object node's path.
    package func path(for key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// The object's members by key (the parser guarantees unique keys).
    package func object() throws(JSONError) -> JSONObjectNode {
        guard case .object(let members) = value else { throw mismatch("an object {…}") }
        var dictionary: [String: JSONValue] = [:]
        for member in members { dictionary[member.key] = member.value }
        return JSONObjectNode(members: dictionary, node: self)
    }

    /// The array's elements with their indexed paths.
    package func array(of what: String = "an array […]") throws(JSONError) -> [JSONNode] {
        guard case .array(let elements) = value else { throw mismatch(what) }
        return elements.enumerated().map { JSONNode(value: $1, path: "\(path)[\($0)]") }
    }

    /// A string.
    package func string() throws(JSONError) -> String {
        guard case .string(let s) = value else { throw mismatch("a string") }
        return s
    }

    /// A finite number. A literal too large for a `Double` (`1e400`) is ``JSONError/nonFinite(path:value:)``.
    package func double() throws(JSONError) -> Double {
        guard case .number(let text) = value else { throw mismatch("a number") }
        guard let number = Double(text) else { throw mismatch("a number") }
        guard number.isFinite else { throw .nonFinite(path: path, value: text) }
        return number
    }

    /// A finite number within `range`; `unit` follows the range in the message (for example "dBm").
    package func double(in range: ClosedRange<Double>, unit: String = "") throws(JSONError) -> Double {
        let number = try double()
        guard range.contains(number) else {
            throw .outOfRange(
                path: path, value: literal,
                range: "\(format(range.lowerBound))...\(format(range.upperBound))" + (unit.isEmpty ? "" : " \(unit)"))
        }
        return number
    }

    /// An integer within `range`. `1.0` is accepted as 1; `1.5` is a wrong type; `70000` for a
    /// major is out of range.
    package func integer(in range: ClosedRange<Int>) throws(JSONError) -> Int {
        guard case .number(let text) = value, let number = Double(text) else { throw mismatch("an integer") }
        guard number.isFinite else { throw .nonFinite(path: path, value: text) }
        guard number.rounded() == number else { throw mismatch("an integer") }
        guard number >= Double(range.lowerBound), number <= Double(range.upperBound) else {
            throw .outOfRange(path: path, value: text, range: "\(range.lowerBound)...\(range.upperBound)")
        }
        return Int(number)
    }

    /// A UUID string, upper or lower case.
    package func uuid() throws(JSONError) -> UUID {
        let text = try string()
        guard let uuid = UUID(uuidString: text) else { throw .malformedUUID(path: path, value: text) }
        return uuid
    }

    /// The value as written, for messages.
    package var literal: String { value.summary }

    package func mismatch(_ expected: String) -> JSONError {
        .wrongType(path: path, expected: expected, found: value.summary)
    }

    private func format(_ bound: Double) -> String {
        bound.rounded() == bound && abs(bound) < 1e15 ? String(Int(bound)) : bound.description
    }
}

/// An object node: looks up members by key, with paths.
package struct JSONObjectNode {
    /// Members by key.
    package let members: [String: JSONValue]
    /// The object itself.
    package let node: JSONNode

    /// The member `key`; missing or `null` is ``JSONError/missingKey(path:)``.
    package func required(_ key: String) throws(JSONError) -> JSONNode {
        guard let value = members[key] else { throw .missingKey(path: node.path(for: key)) }
        if case .null = value { throw .missingKey(path: node.path(for: key)) }
        return JSONNode(value: value, path: node.path(for: key))
    }

    /// The member `key`, or nil when it is missing or `null` (an optional key left out).
    package func optional(_ key: String) -> JSONNode? {
        guard let value = members[key] else { return nil }
        if case .null = value { return nil }
        return JSONNode(value: value, path: node.path(for: key))
    }
}
