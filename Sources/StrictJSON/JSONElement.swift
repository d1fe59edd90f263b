import Foundation

/// Read access to the package's strict JSON parser for the other JSON files of the package
/// (for example the regions file of `Monitoring`), with the same path-naming errors as the
/// floor plan's.
///
/// An element is a JSON value together with its path in the document (`regions[3].circle.radius`).
/// The typed accessors throw ``JSONError`` cases that name that path and the value as
/// written (``JSONError/wrongType(path:expected:found:)``,
/// ``JSONError/outOfRange(path:value:range:)``, ``JSONError/nonFinite(path:value:)``,
/// ``JSONError/missingKey(path:)``, ``JSONError/malformedUUID(path:value:)``); a file
/// format that is not a floor plan maps them to its own error type.
public struct JSONElement: Sendable {
    let node: JSONNode

    /// The element of an already parsed node (the package's other readers, which parse once).
    package init(_ node: JSONNode) { self.node = node }

    /// Parses a whole document (UTF-8, RFC 8259, duplicate keys rejected).
    /// - Throws: ``JSONError/malformedJSON(detail:)`` with line and column.
    public static func parse(_ data: Data) throws(JSONError) -> JSONElement {
        JSONElement(JSONNode(value: try JSONParser.parse(Array(data)), path: ""))
    }

    /// Dotted path with `[i]` indices; empty for the top level.
    public var path: String { node.path }
    /// The value as written, for messages.
    public var literal: String { node.literal }

    /// The members of an object.
    public func object() throws(JSONError) -> JSONMembers { JSONMembers(try node.object()) }
    /// The elements of an array, each with its indexed path.
    public func array() throws(JSONError) -> [JSONElement] { try node.array().map(JSONElement.init) }
    /// A string.
    public func string() throws(JSONError) -> String { try node.string() }
    /// A finite number.
    public func double() throws(JSONError) -> Double { try node.double() }
    /// A finite number within `range`; `unit` follows the range in the message.
    public func double(in range: ClosedRange<Double>, unit: String = "") throws(JSONError) -> Double {
        try node.double(in: range, unit: unit)
    }
    /// An integer within `range` (`1.0` is accepted as 1).
    public func integer(in range: ClosedRange<Int>) throws(JSONError) -> Int { try node.integer(in: range) }
    /// A UUID string, upper or lower case.
    public func uuid() throws(JSONError) -> UUID { try node.uuid() }
}

/// The members of a JSON object, looked up by key with paths.
public struct JSONMembers: Sendable {
    let object: JSONObjectNode

    init(_ object: JSONObjectNode) { self.object = object }

    /// The keys present, sorted.
    public var keys: [String] { object.members.keys.sorted() }
    /// The member `key`; missing or `null` is ``JSONError/missingKey(path:)``.
    public func required(_ key: String) throws(JSONError) -> JSONElement { JSONElement(try object.required(key)) }
    /// The member `key`, or nil when it is missing or `null`.
    public func optional(_ key: String) -> JSONElement? { object.optional(key).map(JSONElement.init) }

    /// Throws ``JSONError/misspelledKey(path:key:suggestion:)`` for the first member (in key
    /// order) that is not one of `known` but close to one of them (``JSONKeySpelling``); other
    /// unknown keys are annotations and pass.
    public func rejectMisspelledKeys(known: [String]) throws(JSONError) {
        for key in keys {
            if let suggestion = JSONKeySpelling.suggestion(for: key, known: known) {
                throw .misspelledKey(path: object.node.path(for: key), key: key, suggestion: suggestion)
            }
        }
    }
}
