import ArgumentParser
import Foundation

/// Turns any error into a one-line message on standard error and a non-zero exit status, as
/// the command contract requires (no stack traces).
enum ToolErrors {
    static func run<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as ExitCode {
            throw error
        } catch {
            // Control characters from an input (a binary header, a value) are escaped, never
            // sent to the terminal raw.
            FileHandle.standardError.write(Data("indoorpos: \("\(error)".escapingControlCharacters)\n".utf8))
            throw ExitCode(1)
        }
    }
}
