/// A parsed JSON document, kept close to its text: numbers keep their literal so that error
/// messages quote what the file says (`70000`, `1e400`), `true` never passes for a number, and
/// object members keep their order.
///
/// Internal: the floor-plan reader walks it with paths (see `JSONNode`), the writer prints it
/// (see `JSONWriter`).
package enum JSONValue: Sendable {
    case null
    case bool(Bool)
    /// A number as written in the file (RFC 8259 grammar), for example `-61.0` or `1e400`.
    case number(String)
    case string(String)
    case array([JSONValue])
    /// Members in file order; keys are unique (the parser rejects duplicates).
    case object([(key: String, value: JSONValue)])

    /// A number from a `Double`, in Swift's shortest round-trip form (`7.09`, `-61.0`).
    /// Only finite values are representable in JSON; callers validate before writing.
    package static func number(_ value: Double) -> JSONValue { .number(value.description) }

    /// A number from an integer.
    package static func number(_ value: Int) -> JSONValue { .number(String(value)) }

    /// How the value reads in an error message: the literal for scalars, the kind for
    /// containers (strings are quoted and cut to 40 characters).
    package var summary: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let text): return text
        case .string(let s): return "the string \(s.quotedForMessage())"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
