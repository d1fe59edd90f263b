/// Why an input file could not be read (its CSV rows name the line and column) or an output
/// file written, whatever its format. Messages name the file, line and column so that the
/// input can be fixed.
public enum FileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file could not be opened or read.
    case unreadable(path: String, detail: String)
    /// An output file could not be created or moved into place.
    case unwritable(path: String, detail: String)
    /// The file has no header row.
    case empty(path: String)
    /// A required column is not in the header.
    case missingColumn(path: String, column: String, header: [String])
    /// A row has a value that does not parse or is out of range.
    case invalidValue(path: String, line: Int, column: String, value: String, expected: String)
    /// A row has fewer fields than the header needs, or an unterminated quote.
    case malformedRow(path: String, line: Int, detail: String)

    /// The line number (1 = header) the error is about, if any.
    public var line: Int? {
        switch self {
        case .invalidValue(_, let line, _, _, _), .malformedRow(_, let line, _): return line
        case .unreadable, .unwritable, .empty, .missingColumn: return nil
        }
    }

    /// One line: control characters from the file (a binary header, a device name with an
    /// escape byte) are written as `\u001B`, never raw.
    public var description: String { rawDescription.escapingControlCharacters }

    private var rawDescription: String {
        switch self {
        case .unreadable(let path, let detail):
            return "\(path): cannot read: \(detail)"
        case .unwritable(let path, let detail):
            return "\(path): cannot write: \(detail)"
        case .empty(let path):
            return "\(path): the file is empty; a header row is required"
        case .missingColumn(let path, let column, let header):
            if header.contains(where: { $0.contains("\r") }) {
                return
                    "\(path): required column '\(column)' is missing: the header runs into the data at a carriage return, so the file seems to end its lines with CR only; convert the line ends to LF or CRLF"
            }
            return "\(path): required column '\(column)' is missing (header has: \(Self.shortened(header)))"
        case .invalidValue(let path, let line, let column, let value, let expected):
            let escaped = value.escapingControlCharacters
            let shown = escaped.count > 60 ? escaped.prefix(60) + "… (\(value.count) characters)" : escaped
            return "\(path):\(line): column '\(column)': '\(shown)' is not \(expected)"
        case .malformedRow(let path, let line, let detail):
            return "\(path):\(line): \(detail)"
        }
    }

    /// A header for a message: at most 12 names of at most 40 characters each, so that a
    /// binary or one-line file does not flood the terminal.
    static func shortened(_ header: [String]) -> String {
        let names = header.prefix(12).map(\.escapingControlCharacters).map { $0.count > 40 ? $0.prefix(40) + "…" : $0 }
        return names.joined(separator: ",") + (header.count > 12 ? ",… (\(header.count) columns)" : "")
    }
}
