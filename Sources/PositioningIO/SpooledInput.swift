import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An input that can be read more than once. A pipe or FIFO (`cat f.csv | indoorpos locate
/// --rssi /dev/stdin`) can be read only once, but grouping by device, smoothing and learning
/// from traffic read the input again; such an input is copied to a temporary file first, which
/// is removed when this value goes (and on SIGINT, SIGTERM or SIGHUP, see `PartialFiles`).
/// A regular file, or anything else (a character device such as `/dev/zero`, whose rows the
/// CSV reader limits), is read in place.
public final class SpooledInput {
    /// The path to read: the input itself, or its temporary copy.
    public let path: String
    private let temporary: String?

    /// The input at `path`, copied when it is a pipe or FIFO.
    /// - Throws: ``FileError/unreadable(path:detail:)`` or ``FileError/unwritable(path:detail:)``
    ///   when it cannot be read or the copy cannot be written.
    public init(path: String) throws(FileError) {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFIFO else {
            self.path = path
            temporary = nil
            return
        }
        guard let source = FileHandle(forReadingAtPath: path) else {
            throw .unreadable(path: path, detail: "cannot open it for reading")
        }
        let copy = FileManager.default.temporaryDirectory
            .appendingPathComponent(
                "indoorpos-input-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString).csv"
            )
            .path
        guard let descriptor = PartialFiles.shared.create(copy, exclusive: true, mode: 0o600) else {
            throw .unwritable(path: copy, detail: "cannot create a temporary copy of the piped input '\(path)'")
        }
        let sink = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            while let chunk = try source.read(upToCount: 1 << 20), !chunk.isEmpty { try sink.write(contentsOf: chunk) }
            try sink.close()
        } catch {
            try? FileManager.default.removeItem(atPath: copy)
            PartialFiles.shared.unregister(copy)
            throw .unreadable(path: path, detail: "copying the piped input failed: \(OutputFile.reason(error))")
        }
        self.path = copy
        temporary = copy
        let name = path == "/dev/stdin" || path == "-" ? "standard input" : path
        Self.labels.set(name, for: copy)
    }

    deinit {
        if let temporary {
            try? FileManager.default.removeItem(atPath: temporary)
            PartialFiles.shared.unregister(temporary)
            Self.labels.set(nil, for: temporary)
        }
    }

    /// What messages call the file at `path`: for the temporary copy of a piped input, the input
    /// the user gave ("standard input" for `/dev/stdin`), not the copy, which is gone by the
    /// time the message is read; any other path as it is.
    public static func label(for path: String) -> String { labels.label(for: path) }

    private static let labels = Labels()

    /// The labels of the copies made so far, by path.
    private final class Labels: @unchecked Sendable {
        private let lock = NSLock()
        private var byPath: [String: String] = [:]

        func set(_ label: String?, for path: String) {
            lock.lock()
            defer { lock.unlock() }
            byPath[path] = label
        }

        func label(for path: String) -> String {
            lock.lock()
            defer { lock.unlock() }
            return byPath[path] ?? path
        }
    }
}
