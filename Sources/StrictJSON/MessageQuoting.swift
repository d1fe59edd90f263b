extension String {
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
