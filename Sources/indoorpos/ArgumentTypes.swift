import ArgumentParser
import Evaluation
import PositioningIO

// The library's own enums are the command-line values (their raw values are the spellings).
extension PositioningEngine.TrackingMode: ExpressibleByArgument {}
extension TrilaterationSolver.Fallback: ExpressibleByArgument {}
extension ReportFormat: ExpressibleByArgument {}
extension EvaluationFormat: ExpressibleByArgument {}

/// Numbers on the command line: plain decimals (`12`, `-0.5`, `2.5e-3`), finite. `Double`'s own
/// parser also takes hexadecimal (`0x10` is 16), `nan` and `inf`, which no option means.
enum NumberArgument {
    /// The value of `text`, or a usage error naming what is accepted.
    static func parse(_ text: String) throws -> Double {
        var digits = 0, index = text.startIndex
        func skipDigits() {
            while index < text.endIndex, text[index].isASCII, text[index].isNumber {
                digits += 1
                index = text.index(after: index)
            }
        }
        if index < text.endIndex, text[index] == "+" || text[index] == "-" { index = text.index(after: index) }
        skipDigits()
        if index < text.endIndex, text[index] == "." {
            index = text.index(after: index)
            skipDigits()
        }
        var valid = digits > 0
        if valid, index < text.endIndex, text[index] == "e" || text[index] == "E" {
            index = text.index(after: index)
            if index < text.endIndex, text[index] == "+" || text[index] == "-" { index = text.index(after: index) }
            digits = 0
            skipDigits()
            valid = digits > 0
        }
        guard valid, index == text.endIndex, let value = Double(text), value.isFinite else {
            throw ValidationError("a decimal number such as 2.5 or 1e-3 is expected (not hexadecimal, nan or inf)")
        }
        return value
    }
}

/// `--jobs`: a whole number of worker threads, 1 to 256.
enum JobsArgument {
    /// The value of `text`, or a usage error.
    static func parse(_ text: String) throws -> Int {
        guard text.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(text), (1...256).contains(value) else {
            throw ValidationError("a whole number of threads from 1 to 256 is expected, got '\(text)'")
        }
        return value
    }
}
