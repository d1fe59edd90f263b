extension String {
    /// The string with control characters (C0, DEL, C1, and the line and paragraph separators)
    /// written as `\u001B`, so that text from a file (a binary header, a device name) can go
    /// into a one-line message without moving the terminal's cursor or changing its colours.
    /// Text without control characters is returned as it is.
    package var escapingControlCharacters: String {
        guard unicodeScalars.contains(where: \.isMessageControl) else { return self }
        var out = ""
        for scalar in unicodeScalars {
            if scalar.isMessageControl {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// The string in double quotes for a one-line error message: quotes, backslashes and
    /// control characters escaped as in JSON, and cut to `limit` characters with `…`.
    package func quotedForMessage(limit: Int = 40) -> String {
        var out = "\""
        for (count, character) in self.enumerated() {
            if count == limit {
                out += "…"
                break
            }
            switch character {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\r\n": out += "\\r\\n"
            case "\t": out += "\\t"
            default:
                if let scalar = character.unicodeScalars.first, character.unicodeScalars.count == 1,
                    scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0x2028
                        || scalar.value == 0x2029
                {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    out += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
                } else {
                    out.append(character)
                }
            }
        }
        return out + "\""
    }
}

extension Unicode.Scalar {
    /// A control character that a message must not print raw.
    fileprivate var isMessageControl: Bool {
        value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029
    }
}
