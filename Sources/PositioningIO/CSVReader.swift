import Foundation

/// A streaming reader of comma-separated files with a header row (RFC 4180 quoting).
///
/// It reads the file in 64 KiB chunks and hands out one row at a time, so memory does not grow
/// with the file. Columns are found by name (case-insensitive, surrounding spaces ignored), in
/// any order; extra columns are ignored. Blank lines are skipped. Line numbers count from 1 for
/// the header.
public final class CSVReader {
    /// The file path (or a label for in-memory data), used in error messages.
    public let path: String
    /// Column names from the header row, trimmed.
    public private(set) var header: [String]
    /// Line number of the row last returned by ``next()`` (1 = header).
    public private(set) var line = 1

    private let handle: FileHandle?
    private var buffer: [UInt8] = []
    private var position = 0
    private var exhausted = false
    private var fields: [String] = []

    /// Opens `path` and reads its header row.
    /// - Throws: ``CSVError/unreadable(path:detail:)`` or ``CSVError/empty(path:)``.
    public init(path: String) throws(CSVError) {
        self.path = path
        guard let handle = FileHandle(forReadingAtPath: path) else {
            let exists = FileManager.default.fileExists(atPath: path)
            throw .unreadable(path: path, detail: exists ? "permission denied or not a file" : "no such file")
        }
        self.handle = handle
        self.header = []
        self.header = try readHeader()
    }

    /// Reads CSV text held in memory; `label` stands for the path in error messages.
    public init(text: String, label: String = "<input>") throws(CSVError) {
        self.path = label
        self.handle = nil
        self.buffer = Array(text.utf8)
        self.exhausted = true
        self.header = []
        self.header = try readHeader()
    }

    deinit { try? handle?.close() }

    private func readHeader() throws(CSVError) -> [String] {
        guard try readRow() else { throw .empty(path: path) }
        line = 1
        var names = fields.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        if let first = names.first, first.hasPrefix("\u{FEFF}") { names[0] = String(first.dropFirst()) }
        return names
    }

    /// The index of the column called `name` (case-insensitive), or nil.
    public func column(_ name: String) -> Int? {
        header.firstIndex { $0.caseInsensitiveCompare(name) == .orderedSame }
    }

    /// The index of the column called `name`.
    /// - Throws: ``CSVError/missingColumn(path:column:header:)`` when there is none.
    public func requireColumn(_ name: String) throws(CSVError) -> Int {
        guard let index = column(name) else { throw .missingColumn(path: path, column: name, header: header) }
        return index
    }

    /// The next data row's fields, or nil at the end of the file. The returned array is reused
    /// by the next call; copy what you keep.
    /// - Throws: ``CSVError/malformedRow(path:line:detail:)`` for an unterminated quote, or
    ///   ``CSVError/unreadable(path:detail:)`` when reading fails.
    public func next() throws(CSVError) -> [String]? {
        while true {
            guard try readRow() else { return nil }
            if fields.count == 1 && fields[0].allSatisfy(\.isWhitespace) { continue }
            return fields
        }
    }

    /// The field of the current row at `index`, trimmed.
    /// - Throws: ``CSVError/malformedRow(path:line:detail:)`` when the row is too short.
    public func field(_ row: [String], _ index: Int) throws(CSVError) -> Substring {
        guard index < row.count else {
            throw .malformedRow(path: path, line: line,
                detail: "has \(row.count) field(s), column '\(header[index])' needs \(index + 1)")
        }
        return Self.trimmed(row[index])
    }

    /// Parses the field at `index` as a finite `Double`.
    public func double(_ row: [String], _ index: Int) throws(CSVError) -> Double {
        let text = try field(row, index)
        guard let value = Double(text), value.isFinite else {
            throw .invalidValue(path: path, line: line, column: header[index], value: String(text),
                                expected: "a finite number")
        }
        return value
    }

    /// Parses the field at `index` as an integer in `range`.
    public func integer(_ row: [String], _ index: Int, in range: ClosedRange<Int>) throws(CSVError) -> Int {
        let text = try field(row, index)
        guard let value = Int(text), range.contains(value) else {
            throw .invalidValue(path: path, line: line, column: header[index], value: String(text),
                                expected: "an integer in \(range.lowerBound)...\(range.upperBound)")
        }
        return value
    }

    static func trimmed(_ text: String) -> Substring {
        var s = Substring(text)
        while let first = s.first, first == " " || first == "\t" { s.removeFirst() }
        while let last = s.last, last == " " || last == "\t" || last == "\r" { s.removeLast() }
        return s
    }

    // MARK: Reading

    /// Reads one logical row (quoted fields may span lines) into `fields`.
    private func readRow() throws(CSVError) -> Bool {
        fields.removeAll(keepingCapacity: true)
        var field: [UInt8] = []
        var inQuotes = false
        var sawAnything = false
        line += 1
        while true {
            guard let byte = try nextByte() else {
                if inQuotes { throw .malformedRow(path: path, line: line, detail: "a quoted field is not closed") }
                if !sawAnything { line -= 1; return false }
                fields.append(String(decoding: field, as: UTF8.self))
                return true
            }
            sawAnything = true
            if inQuotes {
                if byte == UInt8(ascii: "\"") {
                    if try peekByte() == UInt8(ascii: "\"") {
                        _ = try nextByte()
                        field.append(byte)
                    } else {
                        inQuotes = false
                    }
                } else {
                    if byte == UInt8(ascii: "\n") { line += 1 }
                    field.append(byte)
                }
                continue
            }
            switch byte {
            case UInt8(ascii: ","):
                fields.append(String(decoding: field, as: UTF8.self))
                field.removeAll(keepingCapacity: true)
            case UInt8(ascii: "\""):
                inQuotes = true
            case UInt8(ascii: "\n"):
                fields.append(String(decoding: field, as: UTF8.self))
                return true
            default:
                field.append(byte)
            }
        }
    }

    private func nextByte() throws(CSVError) -> UInt8? {
        if position >= buffer.count, !(try refill()) { return nil }
        defer { position += 1 }
        return buffer[position]
    }

    private func peekByte() throws(CSVError) -> UInt8? {
        if position >= buffer.count, !(try refill()) { return nil }
        return buffer[position]
    }

    private func refill() throws(CSVError) -> Bool {
        guard !exhausted, let handle else { return false }
        let chunk: Data?
        do {
            chunk = try handle.read(upToCount: 1 << 16)
        } catch {
            throw .unreadable(path: path, detail: error.localizedDescription)
        }
        guard let chunk, !chunk.isEmpty else {
            exhausted = true
            return false
        }
        buffer.removeAll(keepingCapacity: true)
        buffer.append(contentsOf: chunk)
        position = 0
        return true
    }
}
