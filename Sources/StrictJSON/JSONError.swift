/// Why a JSON document could not be read: its syntax, or a value that is not what the format
/// asks for.
///
/// Every case but ``malformedJSON(detail:)`` names the JSON path of the offending value (for
/// example `regions[3].circle.radius`) and, where there is one, the value as written, so that
/// the file can be fixed. A file format wraps these in its own error (the floor plan's
/// `FloorPlanError`, the monitor's `MonitorError.json`), which says which file it is.
public enum JSONError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The data is not JSON at all, or not UTF-8. `detail` says what was wrong and where
    /// (line and column, both counted from 1).
    case malformedJSON(detail: String)
    /// A required key is missing; `path` is the path the key should have had.
    case missingKey(path: String)
    /// A value has the wrong JSON type (for example a string where a number belongs, or a
    /// fractional number where an integer belongs). `found` describes the value as written.
    case wrongType(path: String, expected: String, found: String)
    /// A number is outside its allowed range. `value` is the number as written, `range` the
    /// allowed range with its unit.
    case outOfRange(path: String, value: String, range: String)
    /// A number is NaN or infinite (in JSON: a literal too large for a `Double`, such as 1e400).
    case nonFinite(path: String, value: String)
    /// A UUID string does not parse.
    case malformedUUID(path: String, value: String)
    /// A key the format does not know but that is close to one it does (see
    /// ``JSONKeySpelling``): almost always a mistake that would drop a value without a word.
    case misspelledKey(path: String, key: String, suggestion: String)

    /// The JSON path the error is about; empty for ``malformedJSON(detail:)`` and for the top
    /// level of the document.
    public var path: String {
        switch self {
        case .malformedJSON: return ""
        case .missingKey(let p), .wrongType(let p, _, _), .outOfRange(let p, _, _), .nonFinite(let p, _),
            .malformedUUID(let p, _), .misspelledKey(let p, _, _):
            return p
        }
    }

    /// One line: the path, the value and what to do about it. Strings from the file are quoted
    /// with control characters escaped, so the message never spans lines.
    public var description: String {
        let where_ = path.isEmpty ? "top level" : path
        switch self {
        case .malformedJSON(let detail):
            return "not valid JSON: \(detail)"
        case .missingKey:
            return "\(where_): required key is missing"
        case .wrongType(_, let expected, let found):
            return "\(where_): expected \(expected), found \(found)"
        case .outOfRange(_, let value, let range):
            return "\(where_): \(value) is out of range \(range)"
        case .nonFinite(_, let value):
            return "\(where_): \(value) is not a finite number"
        case .malformedUUID(_, let value):
            return
                "\(where_): \(value.quotedForMessage(limit: 60)) is not a UUID (expected 8-4-4-4-12 hexadecimal digits)"
        case .misspelledKey(_, let key, let suggestion):
            return
                "\(where_): unknown key \(key.quotedForMessage(limit: 40)); did you mean \(suggestion.quotedForMessage())? "
                + "(a misspelled key would be ignored)"
        }
    }
}
