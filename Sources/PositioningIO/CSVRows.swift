import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The rows of a CSV file as byte ranges: the state and parsing behind ``CSVReader``, kept in
/// one value so that a whole row (or a whole sample) is parsed in one access, without the
/// per-byte exclusivity checks a class's stored properties would cost.
///
/// Bytes are read in 256 KiB blocks into one reused buffer; each row's fields are ranges in it
/// (quoted fields are unescaped in place). Rows end at LF, CRLF, a lone CR or the end of the
/// file (a last row without a line end reads as one with it); a UTF-8 byte order mark before the
/// header is skipped. A row longer than ``maximumRowBytes`` is an error naming its line, so that
/// a file without line ends (or `/dev/zero`) neither hangs nor fills the memory.
struct CSVRows {
    /// The file path (or a label for in-memory data), used in error messages.
    let path: String
    /// Column names from the header row, trimmed.
    private(set) var header: [String] = []
    /// Line number of the current row (1 = header).
    private(set) var line = 0

    private let source: FileSource?
    /// Whether the input is a regular file (which ends), not a device such as `/dev/zero`.
    private let isRegularFile: Bool
    /// Set when the last row read was refused for being longer than ``maximumRowBytes``.
    private var overlong = false
    /// Bytes read and not yet consumed start at `position`; a row's fields point into it.
    private(set) var buffer: [UInt8] = []
    private var position = 0
    private var exhausted = false
    /// The current row's fields as byte ranges in ``buffer`` (untrimmed).
    private var fields = FieldBounds()
    /// Bytes read from the file at a time.
    private let blockSize: Int

    /// The longest row accepted, in bytes (1 MiB): far beyond any row of the formats read here.
    static let maximumRowBytes = 1 << 20

    /// Opens `path` and reads its header row; `blockSize` (bytes per read, 256 KiB unless a
    /// test sets it) changes nothing but where the reads fall.
    init(path: String, blockSize: Int = 1 << 18) throws(FileError) {
        self.path = SpooledInput.label(for: path)
        self.blockSize = max(1, blockSize)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw .unreadable(path: path, detail: "it is a directory; give a CSV file")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            let exists = FileManager.default.fileExists(atPath: path)
            throw .unreadable(path: path, detail: exists ? "permission denied or not a file" : "no such file")
        }
        source = FileSource(handle: handle)
        var info = stat()
        isRegularFile = fstat(handle.fileDescriptor, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
        buffer.reserveCapacity(self.blockSize * 2)
        // At least the three bytes of a byte order mark, however small the blocks.
        while buffer.count < 3, try refill() {}
        try readHeader()
    }

    /// Reads CSV text held in memory; `label` stands for the path in error messages.
    init(text: String, label: String) throws(FileError) {
        path = label
        source = nil
        isRegularFile = false
        blockSize = 1 << 18
        buffer = Array(text.utf8)
        exhausted = true
        try readHeader()
    }

    private mutating func readHeader() throws(FileError) {
        if buffer.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
        guard try readRow() else { throw .empty(path: path) }
        line = 1
        var names = (0..<fields.count).map {
            String(decoding: buffer[fields.starts[$0]..<fields.ends[$0]], as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        if let first = names.first, first.hasPrefix("\u{FEFF}") { names[0] = String(first.dropFirst()) }
        // Columns are found by name, so a name given twice would silently take the first.
        var seen: [String: Int] = [:]
        for (index, name) in names.enumerated() where !name.isEmpty {
            if let first = seen.updateValue(index, forKey: name.lowercased()) {
                throw .malformedRow(
                    path: path, line: 1,
                    detail: "column '\(name)' appears twice in the header (columns \(first + 1) and \(index + 1))")
            }
        }
        header = names
    }

    /// The current row's fields as strings (untrimmed).
    func fieldStrings(into strings: inout [String]) {
        strings.removeAll(keepingCapacity: true)
        for index in 0..<fields.count {
            strings.append(String(decoding: buffer[fields.starts[index]..<fields.ends[index]], as: UTF8.self))
        }
    }

    // MARK: Rows as byte ranges

    /// Moves to the next non-blank row without building strings; its fields are then read with
    /// ``fieldCount`` and ``trimmedRange(_:)``. False at the end of the file.
    mutating func nextRecord() throws(FileError) -> Bool {
        while true {
            guard try readRow() else { return false }
            if fields.count == 1 && isBlank(fields.starts[0]..<fields.ends[0]) { continue }
            return true
        }
    }

    /// Fields in the current row.
    var fieldCount: Int { fields.count }

    /// The byte range in ``buffer`` of field `index` of the current row, without surrounding
    /// spaces and tabs (and a trailing CR).
    /// - Throws: ``FileError/malformedRow(path:line:detail:)`` when the row is too short.
    func trimmedRange(_ index: Int) throws(FileError) -> Range<Int> {
        guard index < fields.count else {
            throw .malformedRow(
                path: path, line: line,
                detail: "has \(fields.count) field(s), column '\(header[index])' needs \(index + 1)")
        }
        var start = fields.starts[index], end = fields.ends[index]
        while start < end, buffer[start] == UInt8(ascii: " ") || buffer[start] == UInt8(ascii: "\t") { start += 1 }
        while end > start, case let byte = buffer[end - 1],
            byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r")
        { end -= 1 }
        return start..<end
    }

    /// The text of `range` in ``buffer``, for messages and the rare values kept as strings.
    func text(_ range: Range<Int>) -> String {
        String(decoding: buffer[range], as: UTF8.self)
    }

    /// Field `index` of the current row as a finite `Double` (the value `Double(String)` gives).
    func recordDouble(_ index: Int) throws(FileError) -> Double {
        let range = try trimmedRange(index)
        guard let value = DecimalText.double(buffer, range), value.isFinite else {
            throw .invalidValue(
                path: path, line: line, column: header[index], value: text(range),
                expected: DecimalText.expectation("a finite number", for: text(range)))
        }
        return value
    }

    /// Field `index` of the current row as a time in seconds that the engine accepts: finite and
    /// within ±`RSSISample/timestampLimit` (10¹⁰ s); the message suggests dividing
    /// millisecond or nanosecond clocks.
    func recordTimestamp(_ index: Int) throws(FileError) -> Double {
        let range = try trimmedRange(index)
        guard let value = DecimalText.double(buffer, range), RSSISample.isUsableTimestamp(value) else {
            throw .invalidValue(
                path: path, line: line, column: header[index], value: text(range),
                expected: DecimalText.isHexadecimal(text(range))
                    ? "a time in seconds written in decimal (hexadecimal such as 0x10 is not read)"
                    : "a time in seconds within ±1e10 (divide milliseconds by 1e3, nanoseconds by 1e9)")
        }
        return value
    }

    /// Field `index` of the current row as an integer in `range`.
    func recordInteger(_ index: Int, in allowed: ClosedRange<Int>) throws(FileError) -> Int {
        let range = try trimmedRange(index)
        guard let value = DecimalText.integer(buffer, range), allowed.contains(value) else {
            throw .invalidValue(
                path: path, line: line, column: header[index], value: text(range),
                expected: "an integer in \(allowed.lowerBound)...\(allowed.upperBound)")
        }
        return value
    }

    /// Whether `range` holds only whitespace (a blank line).
    private func isBlank(_ range: Range<Int>) -> Bool {
        var ascii = true
        for index in range {
            let byte = buffer[index]
            if byte >= 0x80 {
                ascii = false
                break
            }
            if !(byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)) { return false }
        }
        return ascii || text(range).allSatisfy(\.isWhitespace)
    }

    // MARK: Reading

    /// Reads one logical row (quoted fields may span lines) into ``fields``.
    /// A row ends at LF, CRLF or a lone CR.
    private mutating func readRow() throws(FileError) -> Bool {
        overlong = false
        line += 1
        while true {
            fields.removeAll()
            var index = position
            var fieldStart = index
            let end = buffer.count
            // The common case: no quotes; one pass finds the commas and the line end.
            while index < end {
                let byte = buffer[index]
                if byte == UInt8(ascii: ",") {
                    fields.append(fieldStart, index)
                    fieldStart = index + 1
                } else if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                    if byte == UInt8(ascii: "\r"), index + 1 >= end, try refillKeepingRow() { break }
                    fields.append(fieldStart, index)
                    position = index + 1
                    if byte == UInt8(ascii: "\r"), position < buffer.count, buffer[position] == UInt8(ascii: "\n") {
                        position += 1
                    }
                    return true
                } else if byte == UInt8(ascii: "\"") {
                    return try readQuotedRow()
                }
                index += 1
            }
            if index < end { continue }  // refilled at a CR: parse the row again
            // The row runs past the buffered bytes: read more and parse it again.
            if try refillKeepingRow() { continue }
            if position >= buffer.count {
                line -= 1
                return false
            }
            fields.append(fieldStart, buffer.count)
            position = buffer.count
            return true
        }
    }

    /// The slow path for a row with quotes: finds the row's end (reading more as needed),
    /// then splits it, unescaping quoted fields in place.
    private mutating func readQuotedRow() throws(FileError) -> Bool {
        let startLine = line
        // Find the end of the row with its quotes in mind.
        var rowEnd: Int
        var nextPosition: Int
        var extraLines: Int
        scan: while true {
            var inQuotes = false
            var index = position
            extraLines = 0
            while index < buffer.count {
                let byte = buffer[index]
                if byte == UInt8(ascii: "\"") {
                    inQuotes.toggle()
                } else if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                    let crlf =
                        byte == UInt8(ascii: "\r") && index + 1 < buffer.count
                        && buffer[index + 1] == UInt8(ascii: "\n")
                    if byte == UInt8(ascii: "\r"), index + 1 >= buffer.count, try refillKeepingRow() { continue scan }
                    if !inQuotes {
                        rowEnd = index
                        nextPosition = index + (crlf ? 2 : 1)
                        break scan
                    }
                    extraLines += 1
                    if crlf { index += 1 }
                }
                index += 1
            }
            if try refillKeepingRow() { continue }
            if inQuotes { throw .malformedRow(path: path, line: startLine, detail: "a quoted field is not closed") }
            rowEnd = buffer.count
            nextPosition = buffer.count
            break
        }
        // Split and unescape: "" inside quotes is one quote; quotes elsewhere toggle quoting.
        fields.removeAll()
        var read = position, write = position
        var fieldStart = position
        var inQuotes = false
        while read < rowEnd {
            let byte = buffer[read]
            read += 1
            if byte == UInt8(ascii: "\"") {
                if inQuotes, read < rowEnd, buffer[read] == UInt8(ascii: "\"") {
                    buffer[write] = byte
                    write += 1
                    read += 1
                } else {
                    inQuotes.toggle()
                }
            } else if byte == UInt8(ascii: ","), !inQuotes {
                fields.append(fieldStart, write)
                fieldStart = write
            } else {
                buffer[write] = byte
                write += 1
            }
        }
        fields.append(fieldStart, write)
        position = nextPosition
        line += extraLines
        return true
    }

    /// Moves the unread bytes (the row being parsed) to the front of the buffer and appends the
    /// next block of the file. False when nothing more could be read; the buffer is then left
    /// as it was, so that the caller's byte offsets stay valid.
    /// - Throws: ``FileError/malformedRow(path:line:detail:)`` when the row being parsed is
    ///   already ``maximumRowBytes`` long.
    private mutating func refillKeepingRow() throws(FileError) -> Bool {
        if buffer.count - position >= Self.maximumRowBytes, !exhausted, source != nil {
            overlong = true
            throw .malformedRow(
                path: path, line: line,
                detail:
                    "the row is longer than \(Self.maximumRowBytes / (1 << 20)) MiB without a line end; is this a CSV file?"
            )
        }
        guard let chunk = try readBlock() else { return false }
        if position > 0 {
            buffer.removeSubrange(0..<position)
            position = 0
        }
        buffer.append(contentsOf: chunk)
        return true
    }

    /// After the error for a row longer than ``maximumRowBytes``, passes over the rest of that
    /// row up to its line end (LF, CRLF or CR, quotes not considered), reading on in blocks
    /// without keeping them, so that the next row can be read; memory stays at one block. False,
    /// and nothing done, after any other error, or when the input is not a regular file (a
    /// device such as `/dev/zero` may never have a line end).
    mutating func skipOverlongRow() throws(FileError) -> Bool {
        guard overlong, isRegularFile else { return false }
        overlong = false
        // The last byte read may be the row's CR (the row was refused while looking past it).
        var index = max(position, buffer.count - 1)
        while true {
            while index < buffer.count {
                let byte = buffer[index]
                index += 1
                guard byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") else { continue }
                position = index
                if byte == UInt8(ascii: "\r") {
                    if position == buffer.count {
                        buffer.removeAll(keepingCapacity: true)
                        position = 0
                        guard let chunk = try readBlock() else { return true }
                        buffer.append(contentsOf: chunk)
                    }
                    if buffer[position] == UInt8(ascii: "\n") { position += 1 }
                }
                return true
            }
            buffer.removeAll(keepingCapacity: true)
            position = 0
            index = 0
            guard let chunk = try readBlock() else { return true }
            buffer.append(contentsOf: chunk)
        }
    }

    private mutating func refill() throws(FileError) -> Bool {
        guard let chunk = try readBlock() else { return false }
        buffer.append(contentsOf: chunk)
        return true
    }

    /// The next block of the file, or nil (and `exhausted`) at its end.
    private mutating func readBlock() throws(FileError) -> Data? {
        guard !exhausted, let source else { return nil }
        let chunk: Data?
        do {
            chunk = try source.handle.read(upToCount: blockSize)
        } catch {
            throw .unreadable(path: path, detail: error.localizedDescription)
        }
        guard let chunk, !chunk.isEmpty else {
            exhausted = true
            return nil
        }
        return chunk
    }
}

/// An open file that closes when the last reader holding it goes.
final class FileSource {
    let handle: FileHandle
    init(handle: FileHandle) { self.handle = handle }
    deinit { try? handle.close() }
}

/// The fields of a CSV row as byte ranges: `starts[i]..<ends[i]` for i below ``count``. Emptied
/// by setting the count to zero (the lists keep their entries and storage), so that starting a
/// row costs no call into the array's removal code.
private struct FieldBounds {
    private(set) var starts: [Int] = []
    private(set) var ends: [Int] = []
    private(set) var count = 0

    /// Forgets every field.
    mutating func removeAll() { count = 0 }

    /// Adds the field `start..<end`.
    mutating func append(_ start: Int, _ end: Int) {
        if count < starts.count {
            starts[count] = start
            ends[count] = end
        } else {
            starts.append(start)
            ends.append(end)
        }
        count += 1
    }
}
