import Foundation

/// A streaming reader of comma-separated files with a header row (RFC 4180 quoting).
///
/// It reads the file in 256 KiB blocks into one reused byte buffer and finds each row's fields
/// as byte ranges in it (quoted fields are unescaped in place), so memory does not grow with
/// the file and reading a row allocates nothing; ``next()`` builds `String`s only for callers
/// that want them. Rows end at LF, CRLF, a lone CR or the end of the file (a final line end is
/// optional); a row longer than 1 MiB is an error. A UTF-8 byte order mark before the header
/// is ignored. Columns are found by name (case-insensitive, surrounding spaces ignored), in any
/// order; extra columns are ignored, and a name given twice is an error. Blank lines are skipped. Line numbers count from 1 for the
/// header.
public final class CSVReader {
    /// The rows, parsed in place.
    var rows: CSVRows
    private var fields: [String] = []

    /// The file path (or a label for in-memory data), used in error messages.
    public var path: String { rows.path }
    /// Column names from the header row, trimmed.
    public var header: [String] { rows.header }
    /// Line number of the row last returned by ``next()`` (1 = header).
    public var line: Int { rows.line }

    /// Opens `path` and reads its header row.
    /// - Throws: ``FileError/unreadable(path:detail:)`` or ``FileError/empty(path:)``.
    public init(path: String) throws(FileError) {
        rows = try CSVRows(path: path)
    }

    /// Opens `path` reading `blockSize` bytes at a time (default 256 KiB). The rows are the
    /// same for every block size; tests and the fuzzer move the block boundaries with it.
    public init(path: String, blockSize: Int) throws(FileError) {
        rows = try CSVRows(path: path, blockSize: blockSize)
    }

    /// Reads CSV text held in memory; `label` stands for the path in error messages.
    public init(text: String, label: String = "<input>") throws(FileError) {
        rows = try CSVRows(text: text, label: label)
    }

    /// The index of the column called `name` (case-insensitive), or nil.
    public func column(_ name: String) -> Int? {
        header.firstIndex { $0.caseInsensitiveCompare(name) == .orderedSame }
    }

    /// The index of the column called `name`.
    /// - Throws: ``FileError/missingColumn(path:column:header:)`` when there is none.
    public func requireColumn(_ name: String) throws(FileError) -> Int {
        guard let index = column(name) else { throw .missingColumn(path: path, column: name, header: header) }
        return index
    }

    /// The next data row's fields, or nil at the end of the file. The returned array is reused
    /// by the next call; copy what you keep.
    /// - Throws: ``FileError/malformedRow(path:line:detail:)`` for an unterminated quote, or
    ///   ``FileError/unreadable(path:detail:)`` when reading fails.
    public func next() throws(FileError) -> [String]? {
        guard try rows.nextRecord() else { return nil }
        rows.fieldStrings(into: &fields)
        return fields
    }

    /// The field of the current row at `index`, trimmed.
    /// - Throws: ``FileError/malformedRow(path:line:detail:)`` when the row is too short.
    public func field(_ row: [String], _ index: Int) throws(FileError) -> Substring {
        guard index < row.count else {
            throw .malformedRow(
                path: path, line: line,
                detail: "has \(row.count) field(s), column '\(header[index])' needs \(index + 1)")
        }
        return Self.trimmed(row[index])
    }

    /// Parses the field at `index` as a finite `Double`.
    public func double(_ row: [String], _ index: Int) throws(FileError) -> Double {
        let text = try field(row, index)
        guard let value = DecimalText.double(text), value.isFinite else {
            throw .invalidValue(
                path: path, line: line, column: header[index], value: String(text),
                expected: DecimalText.expectation("a finite number", for: text))
        }
        return value
    }

    /// Parses the field at `index` as an integer in `range`.
    public func integer(_ row: [String], _ index: Int, in range: ClosedRange<Int>) throws(FileError) -> Int {
        let text = try field(row, index)
        guard let value = Int(text), range.contains(value) else {
            throw .invalidValue(
                path: path, line: line, column: header[index], value: String(text),
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
}
