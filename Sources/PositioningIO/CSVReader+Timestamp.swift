extension CSVReader {
    /// Parses the field at `index` as a time in seconds that the engine accepts: finite and
    /// within ±`RSSISample/timestampLimit` (10¹⁰ s).
    /// - Throws: ``FileError/invalidValue(path:line:column:value:expected:)`` naming the row; the
    ///   message suggests dividing millisecond or nanosecond clocks.
    public func timestamp(_ row: [String], _ index: Int) throws(FileError) -> Double {
        let text = try field(row, index)
        guard let value = DecimalText.double(text), RSSISample.isUsableTimestamp(value) else {
            throw .invalidValue(
                path: path, line: line, column: header[index], value: String(text),
                expected: DecimalText.isHexadecimal(text)
                    ? "a time in seconds written in decimal (hexadecimal such as 0x10 is not read)"
                    : "a time in seconds within ±1e10 (divide milliseconds by 1e3, nanoseconds by 1e9)")
        }
        return value
    }
}
