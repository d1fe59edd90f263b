/// Numbers parsed straight from a CSV field's bytes, giving exactly what `Double(String)` and
/// `Int(String)` give for the same text, without building a `String` for the common cases.
///
/// Plain decimals `[+-]digits[.digits][(e|E)[+-]digits]` whose significant digits form an
/// integer m ≤ 2⁵³ and whose decimal exponent e satisfies |e| ≤ 22 are computed as m × 10^e or
/// m ÷ 10^−e. Both operands are exact doubles (10^22 < 2⁵³ · 2^22 is the largest power of ten
/// a double holds exactly), so the one IEEE multiplication or division rounds the exact
/// quotient correctly: the same double a correctly rounded `strtod` returns (Clinger 1990,
/// "How to read floating point numbers accurately", the fast path). Anything else (more
/// digits, larger exponents, hexadecimal, `inf`, `nan`, odd spellings) goes through the
/// standard library's parser on a `String`, so the accepted language and every value stay
/// exactly as before, except hexadecimal (`0x10`, `-0x46`, `0x1p3`), which that parser reads
/// and which no column of these files means: it is refused (`-0x46` was an RSSI of −70).
enum DecimalText {
    /// 10⁰ … 10²², each exact in a double.
    private static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22
    ]

    /// The double the text `bytes[range]` spells, or nil where `Double(String)` gives nil.
    static func double(_ bytes: [UInt8], _ range: Range<Int>) -> Double? {
        if let value = fastDouble(bytes, range) { return value }
        return double(String(decoding: bytes[range], as: UTF8.self))
    }

    /// The double `text` spells as `Double(String)` reads it, or nil for hexadecimal.
    static func double(_ text: some StringProtocol) -> Double? {
        guard !isHexadecimal(text) else { return nil }
        return Double(String(text))
    }

    /// Whether `text` is written in hexadecimal (`0x…` or `0X…`, with or without a sign), as
    /// `Double(String)` would read it.
    static func isHexadecimal(_ text: some StringProtocol) -> Bool {
        var bytes = text.utf8.makeIterator()
        var byte = bytes.next()
        if byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") { byte = bytes.next() }
        guard byte == UInt8(ascii: "0") else { return false }
        let next = bytes.next()
        return next == UInt8(ascii: "x") || next == UInt8(ascii: "X")
    }

    /// What a message says a number column expects: `expected`, or for a hexadecimal value
    /// that it must be decimal.
    static func expectation(_ expected: String, for value: some StringProtocol) -> String {
        isHexadecimal(value) ? "\(expected) written in decimal (hexadecimal such as 0x10 is not read)" : expected
    }

    /// The integer the text `bytes[range]` spells, or nil where `Int(String)` gives nil.
    static func integer(_ bytes: [UInt8], _ range: Range<Int>) -> Int? {
        var i = range.lowerBound
        let end = range.upperBound
        var negative = false
        if i < end, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
            negative = bytes[i] == UInt8(ascii: "-")
            i += 1
        }
        // Up to 18 digits cannot overflow; longer texts take the standard library's path.
        guard i < end, end - i <= 18 else { return Int(String(decoding: bytes[range], as: UTF8.self)) }
        var value = 0
        while i < end {
            let digit = bytes[i] &- UInt8(ascii: "0")
            guard digit < 10 else { return nil }
            value = value &* 10 &+ Int(digit)
            i += 1
        }
        return negative ? -value : value
    }

    /// The fast path, or nil when the text is not a plain decimal it can do exactly.
    private static func fastDouble(_ bytes: [UInt8], _ range: Range<Int>) -> Double? {
        var i = range.lowerBound
        let end = range.upperBound
        var negative = false
        if i < end, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
            negative = bytes[i] == UInt8(ascii: "-")
            i += 1
        }
        let limit: UInt64 = 1 << 53
        var mantissa: UInt64 = 0
        var exponent = 0
        var integerDigits = 0
        while i < end, case let digit = bytes[i] &- UInt8(ascii: "0"), digit < 10 {
            mantissa = mantissa &* 10 &+ UInt64(digit)
            guard mantissa <= limit else { return nil }
            integerDigits += 1
            i += 1
        }
        guard integerDigits > 0 else { return nil }
        if i < end, bytes[i] == UInt8(ascii: ".") {
            i += 1
            var fractionDigits = 0
            while i < end, case let digit = bytes[i] &- UInt8(ascii: "0"), digit < 10 {
                mantissa = mantissa &* 10 &+ UInt64(digit)
                guard mantissa <= limit else { return nil }
                fractionDigits += 1
                i += 1
            }
            guard fractionDigits > 0 else { return nil }
            exponent -= fractionDigits
        }
        if i < end, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            var negativeExponent = false
            if i < end, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
                negativeExponent = bytes[i] == UInt8(ascii: "-")
                i += 1
            }
            var written = 0
            var digits = 0
            while i < end, case let digit = bytes[i] &- UInt8(ascii: "0"), digit < 10 {
                written = written &* 10 &+ Int(digit)
                guard written <= 1000 else { return nil }
                digits += 1
                i += 1
            }
            guard digits > 0 else { return nil }
            exponent += negativeExponent ? -written : written
        }
        guard i == end else { return nil }
        let magnitude: Double
        if exponent == 0 {
            magnitude = Double(mantissa)
        } else if exponent > 0, exponent <= 22 {
            magnitude = Double(mantissa) * powersOfTen[exponent]
        } else if exponent < 0, exponent >= -22 {
            magnitude = Double(mantissa) / powersOfTen[-exponent]
        } else {
            return nil
        }
        return negative ? -magnitude : magnitude
    }
}
