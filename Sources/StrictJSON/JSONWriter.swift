/// Prints a ``JSONValue`` as stable, pretty JSON: keys sorted by their UTF-8 bytes, two-space
/// indentation, a container holding only scalars (a point `[x, y]`, a short list) on one line,
/// and a final newline. The same value always gives the same bytes.
package enum JSONWriter {
    /// The document's UTF-8 text.
    package static func write(_ value: JSONValue) -> [UInt8] {
        var out: [UInt8] = []
        write(value, indent: 0, into: &out)
        out.append(0x0A)
        return out
    }

    private static func write(_ value: JSONValue, indent: Int, into out: inout [UInt8]) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .number(let text): out.append(contentsOf: text.utf8)
        case .string(let s): writeString(s, into: &out)
        case .array(let elements):
            writeContainer(
                open: "[", close: "]", count: elements.count,
                inline: elements.allSatisfy(\.isScalar), indent: indent, into: &out
            ) { i, out in
                write(elements[i], indent: indent + 1, into: &out)
            }
        case .object(let members):
            let sorted = members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            writeContainer(
                open: "{", close: "}", count: sorted.count,
                inline: false, indent: indent, into: &out
            ) { i, out in
                writeString(sorted[i].key, into: &out)
                out.append(contentsOf: ": ".utf8)
                write(sorted[i].value, indent: indent + 1, into: &out)
            }
        }
    }

    private static func writeContainer(
        open: Character, close: Character, count: Int, inline: Bool,
        indent: Int, into out: inout [UInt8],
        element: (Int, inout [UInt8]) -> Void
    ) {
        out.append(contentsOf: String(open).utf8)
        if count == 0 {
            out.append(contentsOf: String(close).utf8)
            return
        }
        for i in 0..<count {
            if i > 0 { out.append(contentsOf: (inline ? ", " : ",").utf8) }
            if !inline { newline(indent: indent + 1, into: &out) }
            element(i, &out)
        }
        if !inline { newline(indent: indent, into: &out) }
        out.append(contentsOf: String(close).utf8)
    }

    private static func newline(indent: Int, into out: inout [UInt8]) {
        out.append(0x0A)
        out.append(contentsOf: repeatElement(0x20, count: 2 * indent))
    }

    /// A JSON string: `"` and `\` escaped, control characters as `\n`, `\t` or `\u00XX`,
    /// everything else as its UTF-8 bytes.
    private static func writeString(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: #"\\"#.utf8)
            case 0x0A: out.append(contentsOf: #"\n"#.utf8)
            case 0x0D: out.append(contentsOf: #"\r"#.utf8)
            case 0x09: out.append(contentsOf: #"\t"#.utf8)
            case 0x00..<0x20:
                let hex = String(byte, radix: 16, uppercase: true)
                out.append(contentsOf: ("\\u00" + (hex.count == 1 ? "0" : "") + hex).utf8)
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}

extension JSONValue {
    /// Whether the value is neither an array nor an object.
    package var isScalar: Bool {
        switch self {
        case .array, .object: return false
        default: return true
        }
    }
}
