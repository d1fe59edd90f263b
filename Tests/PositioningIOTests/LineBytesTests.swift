import Foundation
import TestSupport
import Testing

@testable import PositioningIO

@Suite("Output lines as bytes")
struct LineBytesTests {
    static func fixed(_ value: Double, _ digits: Int = 3) -> String {
        var line = LineBytes()
        line.append(fixed: value, digits: digits)
        return String(decoding: line.bytes, as: UTF8.self)
    }

    @Test("fixed-point numbers are exactly what %.3f prints: random values, exact ties, signs, extremes")
    func fixedMatchesPrintf() {
        var random = SeededGenerator(seed: 31)
        var values: [Double] = [
            0, -0.0, 0.0005, -0.0005, 0.0004999, -0.0001, 1e-300, -1e-300, 2.5e15, 9.007e15,
            1e17, -1e22, 4503599627.3705, .greatestFiniteMagnitude, .leastNonzeroMagnitude
        ]
        // Exact ties at the third decimal: odd multiples of 1/16, 1/32, … (1000 j / 2^k = n + 1/2).
        for k in 4...12 {
            for j in stride(from: 1, to: 4000, by: 2) { values.append(Double(j) / Double(1 << k)) }
        }
        for _ in 0..<50_000 {
            switch Int.random(in: 0..<4, using: &random) {
            case 0: values.append(Double.random(in: -30...30, using: &random))
            case 1: values.append(Double.random(in: 1.5e9...1.8e9, using: &random))
            case 2: values.append(Double(Int.random(in: -100_000...100_000, using: &random)) / 1000 + 0.0005)
            default: values.append(Double(bitPattern: random.next()))
            }
        }
        for value in values {
            let expected = value.isFinite ? String(format: "%.3f", value) : "null"
            #expect(Self.fixed(value) == expected, "\(value.bitPattern)")
        }
        #expect(Self.fixed(.nan) == "null")
        #expect(Self.fixed(2.5, 0) == String(format: "%.0f", 2.5))
        #expect(Self.fixed(-1.23456789, 9) == String(format: "%.9f", -1.23456789))
    }

    @Test("integers, CSV fields and JSON strings are written as the String-based writer wrote them")
    func textMatches() {
        var line = LineBytes()
        for value in [0, -7, 12, Int.max, Int.min] {
            line.clear()
            line.append(integer: value)
            #expect(String(decoding: line.bytes, as: UTF8.self) == String(value))
        }
        let cases: [(String, String, String)] = [
            ("lobby", "lobby", "\"lobby\""),
            ("phone, A", "\"phone, A\"", "\"phone, A\""),
            ("say \"hi\"", "\"say \"\"hi\"\"\"", "\"say \\\"hi\\\"\""),
            ("two\nlines", "\"two\nlines\"", "\"two\\nlines\""),
            ("crlf\r\nend", "crlf\r\nend", "\"crlf\\r\\nend\""),
            ("tab\tbell\u{7}", "tab\tbell\u{7}", "\"tab\\tbell\\u0007\""),
            ("Büro, 2", "\"Büro, 2\"", "\"Büro, 2\""),
            ("back\\slash", "back\\slash", "\"back\\\\slash\"")
        ]
        for (text, csv, json) in cases {
            line.clear()
            line.append(csvField: text)
            #expect(String(decoding: line.bytes, as: UTF8.self) == csv)
            line.clear()
            line.append(jsonString: text)
            #expect(String(decoding: line.bytes, as: UTF8.self) == json)
        }
    }
}
