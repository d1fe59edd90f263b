import Foundation

/// An output line built as bytes in a reused buffer: fixed-point numbers, integers, and text
/// quoted for CSV or JSON, each written exactly as the `String`-based formatting it replaces
/// (`String(format: "%.3f")`, `String(Int)`, …) writes it, without allocating per line.
struct LineBytes {
    var bytes: [UInt8] = []

    /// An empty line with room for `capacity` bytes (0: no buffer until the first byte).
    init(reserving capacity: Int = 256) { bytes.reserveCapacity(capacity) }

    mutating func clear() { bytes.removeAll(keepingCapacity: true) }

    mutating func append(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func append(string text: String) { bytes.append(contentsOf: text.utf8) }

    mutating func append(byte: UInt8) { bytes.append(byte) }

    /// A decimal integer, as `String(value)`.
    mutating func append(integer value: Int) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        appendDigits(UInt64(value.magnitude), minimumCount: 1)
    }

    /// `value` with `digits` decimals (0…9), as `String(format: "%.<digits>f", value)` writes it
    /// with the C library: the exact binary value rounded to nearest, ties to even; a negative
    /// value keeps its sign even when it rounds to zero. Non-finite values are `null`.
    mutating func append(fixed value: Double, digits: Int) {
        guard value.isFinite else {
            append("null")
            return
        }
        let magnitude = value.magnitude
        let scale = Self.powersOfTen[min(max(digits, 0), 9)]
        let product = magnitude * scale
        // Past 2^52 the units of `product` are not all representable, and tiny values could
        // lose the product's error to underflow: leave those to the C library.
        guard (0...9).contains(digits), product < 4_503_599_627_370_496,
            magnitude == 0 || magnitude > 1e-280
        else {
            append(string: String(format: "%.\(digits)f", value))
            return
        }
        // magnitude × scale exactly = product + error: the error of a product is a double,
        // and the fused multiply-add computes it exactly.
        let error = (-product).addingProduct(magnitude, scale)
        let whole = product.rounded(.down)
        // Compare the exact fraction (product − whole) + error with one half; the first
        // difference is exact, and the sign of a sum of two doubles is computed correctly.
        let excess = (product - whole - 0.5) + error
        var units = UInt64(whole)
        if excess > 0 || (excess == 0 && units & 1 == 1) { units += 1 }
        if value.sign == .minus { bytes.append(UInt8(ascii: "-")) }
        let divisor = UInt64(scale)
        appendDigits(units / divisor, minimumCount: 1)
        if digits > 0 {
            bytes.append(UInt8(ascii: "."))
            appendDigits(units % divisor, minimumCount: digits)
        }
    }

    /// A CSV field: quoted (quotes doubled) when it holds a comma, quote or line feed.
    mutating func append(csvField text: String) {
        var plain = true, needsQuotes = false
        for byte in text.utf8 {
            if byte >= 0x80 || byte == UInt8(ascii: "\r") {
                plain = false
                break
            }
            if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\n") {
                needsQuotes = true
            }
        }
        guard plain else {
            // Characters, not bytes, decide for other text (as the String-based writer did).
            if text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" }) {
                append(string: "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\"")
            } else {
                append(string: text)
            }
            return
        }
        guard needsQuotes else { return append(string: text) }
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            if byte == UInt8(ascii: "\"") { bytes.append(byte) }
            bytes.append(byte)
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// A JSON string literal: quotes, backslashes and control characters escaped.
    mutating func append(jsonString text: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): append("\\\"")
            case UInt8(ascii: "\\"): append("\\\\")
            case UInt8(ascii: "\n"): append("\\n")
            case UInt8(ascii: "\r"): append("\\r")
            case UInt8(ascii: "\t"): append("\\t")
            case 0..<0x20:
                append("\\u00")
                bytes.append(Self.hex[Int(byte >> 4)])
                bytes.append(Self.hex[Int(byte & 15)])
            default:
                bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static let powersOfTen: [Double] = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9]
    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    /// The decimal digits of `value`, left-padded with zeros to `minimumCount`.
    private mutating func appendDigits(_ value: UInt64, minimumCount: Int) {
        var count = 1
        var limit: UInt64 = 10
        while count < 20, value >= limit {
            count += 1
            if limit > UInt64.max / 10 { break }
            limit *= 10
        }
        let width = max(count, minimumCount)
        let start = bytes.count
        for _ in 0..<width { bytes.append(UInt8(ascii: "0")) }
        var rest = value
        var index = start + width - 1
        while rest > 0 {
            bytes[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
            index -= 1
        }
    }
}
