import Foundation
import Testing

@testable import StrictJSON

@Suite("Strict JSON reading")
struct JSONParserTests {
    @Test(
        "syntax errors are malformedJSON with line and column",
        arguments: [
            ("", "the document is empty (line 1, column 1)"),
            ("  \n ", "the document is empty (line 2, column 2)"),
            ("{", "an object key in double quotes was expected (line 1, column 2)"),
            (#"{"floors": [1, 2,]}"#, "trailing comma before ']' (line 1, column 18)"),
            ("{\"floors\": [],\n}", "trailing comma before '}' (line 2, column 1)"),
            (#"{"floors" []}"#, "':' was expected after the key \"floors\" (line 1, column 11)"),
            (#"{"floors": [] "name": "x"}"#, "',' or '}' was expected (line 1, column 15)"),
            (#"{"floors": [], "floors": []}"#, "duplicate key \"floors\" in the same object (line 1, column 16)"),
            (#"{"x": NaN}"#, "NaN and Infinity are not JSON; write a finite number (line 1, column 7)"),
            (#"{"x": -Infinity}"#, "a digit was expected in the number (line 1, column 8)"),
            (#"{"x": 01}"#, "a number must not start with 0 followed by more digits (line 1, column 8)"),
            (#"{"x": 1.}"#, "a digit was expected after the decimal point (line 1, column 9)"),
            (#"{"x": 1e}"#, "a digit was expected in the exponent (line 1, column 9)"),
            (#"{"x": tru}"#, "unexpected characters, true or another value was expected (line 1, column 7)"),
            (#"{"x": "a\qb"}"#, "invalid escape \\'q' (line 1, column 10)"),
            (#"{"x": "\ud800"}"#, "an unpaired UTF-16 surrogate in \\u escape (line 1, column 14)"),
            ("{\"x\": \"a\tb\"}", "control character byte 0x9 inside a string must be escaped (line 1, column 9)"),
            (#"{"x": "abc"#, "unexpected end of data inside a string (line 1, column 11)"),
            (#"{"floors": []} []"#, "unexpected text after the JSON value (line 1, column 16)"),
            (#"{'floors': []}"#, "an object key in double quotes was expected (line 1, column 2)")
        ] as [(String, String)])
    func syntaxErrors(_ text: String, detail: String) {
        #expect(throws: JSONError.malformedJSON(detail: detail)) {
            try JSONElement.check(Data(text.utf8))
        }
    }

    @Test("invalid UTF-8 inside a string is an error, not a crash")
    func invalidUTF8() {
        var bytes = Array(#"{"name": "ab"#.utf8)
        bytes += [0xC3, 0x28]  // a lead byte followed by a non-continuation byte
        bytes += Array(#"", "floors": []}"#.utf8)
        #expect(throws: JSONError.self) { try JSONElement.check(Data(bytes)) }
        do {
            try JSONElement.check(Data(bytes))
        } catch {
            guard case .malformedJSON(let detail) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(detail.hasPrefix("the string is not valid UTF-8"))
        }
    }

    @Test("hostile nesting is an error, not a stack overflow")
    func deepNesting() {
        let text = #"{"floors": "# + String(repeating: "[", count: 100_000)
        #expect(
            throws: JSONError.malformedJSON(
                detail:
                    "nested deeper than \(JSONParser.maximumDepth) levels (line 1, column \(11 + JSONParser.maximumDepth))"
            )
        ) {
            try JSONElement.check(Data(text.utf8))
        }
    }

    @Test("escapes, a byte-order mark and non-ASCII text are read correctly")
    func escapes() throws {
        let text = "\u{FEFF}" + #"{"name": "Caf\u00e9 \"A\" \\ \/ \ud83d\ude00 ü\n", "floors": []}"#
        let name = try JSONElement.parse(Data(text.utf8)).object().required("name").string()
        #expect(name == "Café \"A\" \\ / 😀 ü\n")
        // Written and read again, the text is the same.
        let written = JSONWriter.write(try JSONParser.parse(Array(text.utf8)))
        #expect(try JSONElement.parse(Data(written)).object().required("name").string() == name)
    }

    @Test("numbers keep the literal the file gave, for messages")
    func literals() throws {
        let value = try JSONParser.parse(Array(#"[-0.0, 1E+2, 7.09, 12345678901234567890]"#.utf8))
        guard case .array(let elements) = value else {
            Issue.record("not an array")
            return
        }
        #expect(elements.map(\.summary) == ["-0.0", "1E+2", "7.09", "12345678901234567890"])
    }
}
