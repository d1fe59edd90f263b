/// A strict RFC 8259 JSON parser over UTF-8 bytes that keeps number literals as text.
///
/// Why not `JSONSerialization`: on Linux it rejects a whole document for one `1e400` without
/// saying where, keeps the last of two duplicate keys silently, accepts trailing commas and
/// returns `true` as a number. This parser reports every syntax problem with its line and
/// column, rejects duplicate keys, leaves range checks to the walker (so `1e400` becomes a
/// path-naming "not a finite number"), and nests at most ``maximumDepth`` deep so that hostile
/// input cannot exhaust the stack. A leading UTF-8 byte-order mark is skipped.
package struct JSONParser {
    /// Deepest nesting of arrays and objects accepted; a floor plan needs 5.
    package static let maximumDepth = 256

    private let bytes: [UInt8]
    private var offset = 0

    private init(_ bytes: [UInt8]) {
        self.bytes = bytes
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { offset = 3 }
    }

    /// Parses one JSON document (surrounding whitespace allowed, nothing else after it).
    /// - Throws: ``JSONError/malformedJSON(detail:)`` with line and column.
    package static func parse(_ bytes: [UInt8]) throws(JSONError) -> JSONValue {
        var parser = JSONParser(bytes)
        parser.skipWhitespace()
        if parser.offset == bytes.count { throw parser.error("the document is empty") }
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        if parser.offset != bytes.count { throw parser.error("unexpected text after the JSON value") }
        return value
    }

    // MARK: - Values

    private mutating func parseValue(depth: Int) throws(JSONError) -> JSONValue {
        guard let byte = peek() else { throw error("unexpected end of data, a value was expected") }
        switch byte {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        case UInt8(ascii: "N"), UInt8(ascii: "I"):
            throw error("NaN and Infinity are not JSON; write a finite number")
        default:
            throw error("unexpected character \(describe(byte)), a value was expected")
        }
    }

    private mutating func parseObject(depth: Int) throws(JSONError) -> JSONValue {
        if depth > Self.maximumDepth { throw error("nested deeper than \(Self.maximumDepth) levels") }
        offset += 1  // {
        var members: [(key: String, value: JSONValue)] = []
        var seen: Set<String> = []
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            offset += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else {
                throw error(
                    peek() == UInt8(ascii: "}")
                        ? "trailing comma before '}'"
                        : "an object key in double quotes was expected")
            }
            let keyStart = offset
            let key = try parseString()
            if !seen.insert(key).inserted {
                throw error("duplicate key \(key.quotedForMessage()) in the same object", at: keyStart)
            }
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else {
                throw error("':' was expected after the key \(key.quotedForMessage())")
            }
            offset += 1
            skipWhitespace()
            let value = try parseValue(depth: depth)
            members.append((key, value))
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): offset += 1
            case UInt8(ascii: "}"):
                offset += 1
                return .object(members)
            case nil: throw error("unexpected end of data inside an object")
            default: throw error("',' or '}' was expected")
            }
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONError) -> JSONValue {
        if depth > Self.maximumDepth { throw error("nested deeper than \(Self.maximumDepth) levels") }
        offset += 1  // [
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            offset += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            if peek() == UInt8(ascii: "]") { throw error("trailing comma before ']'") }
            elements.append(try parseValue(depth: depth))
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): offset += 1
            case UInt8(ascii: "]"):
                offset += 1
                return .array(elements)
            case nil: throw error("unexpected end of data inside an array")
            default: throw error("',' or ']' was expected")
            }
        }
    }

    // MARK: - Scalars

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`, returned as written.
    private mutating func parseNumber() throws(JSONError) -> String {
        let start = offset
        if peek() == UInt8(ascii: "-") { offset += 1 }
        guard let first = peek(), isDigit(first) else { throw error("a digit was expected in the number") }
        offset += 1
        if first == UInt8(ascii: "0"), let next = peek(), isDigit(next) {
            throw error("a number must not start with 0 followed by more digits")
        }
        skipDigits()
        if peek() == UInt8(ascii: ".") {
            offset += 1
            guard let d = peek(), isDigit(d) else { throw error("a digit was expected after the decimal point") }
            skipDigits()
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            offset += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { offset += 1 }
            guard let d = peek(), isDigit(d) else { throw error("a digit was expected in the exponent") }
            skipDigits()
        }
        return String(decoding: bytes[start..<offset], as: UTF8.self)
    }

    private mutating func parseString() throws(JSONError) -> String {
        offset += 1  // opening quote
        var utf8: [UInt8] = []
        while true {
            guard let byte = peek() else { throw error("unexpected end of data inside a string") }
            switch byte {
            case UInt8(ascii: "\""):
                offset += 1
                // Decoding replaces ill-formed sequences, so it round-trips only valid UTF-8.
                let string = String(decoding: utf8, as: UTF8.self)
                guard string.utf8.elementsEqual(utf8) else { throw error("the string is not valid UTF-8") }
                return string
            case UInt8(ascii: "\\"):
                offset += 1
                try parseEscape(into: &utf8)
            case 0x00..<0x20:
                throw error("control character \(describe(byte)) inside a string must be escaped")
            default:
                utf8.append(byte)
                offset += 1
            }
        }
    }

    private mutating func parseEscape(into utf8: inout [UInt8]) throws(JSONError) {
        guard let byte = peek() else { throw error("unexpected end of data in an escape") }
        offset += 1
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(byte)
        case UInt8(ascii: "b"): utf8.append(0x08)
        case UInt8(ascii: "f"): utf8.append(0x0C)
        case UInt8(ascii: "n"): utf8.append(0x0A)
        case UInt8(ascii: "r"): utf8.append(0x0D)
        case UInt8(ascii: "t"): utf8.append(0x09)
        case UInt8(ascii: "u"):
            var scalar = try parseHex4()
            if (0xD800..<0xDC00).contains(scalar) {
                // A high surrogate must be followed by an escaped low surrogate.
                guard peek() == UInt8(ascii: "\\"), peek(1) == UInt8(ascii: "u") else {
                    throw error("an unpaired UTF-16 surrogate in \\u escape")
                }
                offset += 2
                let low = try parseHex4()
                guard (0xDC00..<0xE000).contains(low) else { throw error("an unpaired UTF-16 surrogate in \\u escape") }
                scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00..<0xE000).contains(scalar) {
                throw error("an unpaired UTF-16 surrogate in \\u escape")
            }
            guard let unicode = Unicode.Scalar(scalar) else { throw error("an invalid \\u escape") }
            utf8.append(contentsOf: String(Character(unicode)).utf8)
        default:
            offset -= 1
            throw error("invalid escape \\\(describe(byte))")
        }
    }

    private mutating func parseHex4() throws(JSONError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let byte = peek() else { throw error("unexpected end of data in a \\u escape") }
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("four hexadecimal digits were expected after \\u")
            }
            value = value << 4 | digit
            offset += 1
        }
        return value
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONError) {
        let text = literal.withUTF8Buffer { Array($0) }
        guard offset + text.count <= bytes.count, Array(bytes[offset..<offset + text.count]) == text else {
            throw error("unexpected characters, \(literal) or another value was expected")
        }
        offset += text.count
    }

    // MARK: - Bytes

    private func peek(_ ahead: Int = 0) -> UInt8? {
        offset + ahead < bytes.count ? bytes[offset + ahead] : nil
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private mutating func skipDigits() {
        while let byte = peek(), isDigit(byte) { offset += 1 }
    }

    private mutating func skipWhitespace() {
        while let byte = peek(), byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { offset += 1 }
    }

    private func describe(_ byte: UInt8) -> String {
        (0x21..<0x7F).contains(byte)
            ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x" + String(byte, radix: 16, uppercase: true)
    }

    /// The error at `position` (default: the current offset), with 1-based line and column
    /// (column counted in bytes).
    private func error(_ message: String, at position: Int? = nil) -> JSONError {
        let end = min(position ?? offset, bytes.count)
        var line = 1, column = 1
        for byte in bytes[..<end] {
            if byte == 0x0A {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return .malformedJSON(detail: "\(message) (line \(line), column \(column))")
    }
}
