import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a command writes: standard output, or a file that appears only when the command
/// succeeds (written to a temporary file beside it and moved into place on ``commit()``), so a
/// failure never leaves a partial output file behind.
public final class OutputFile {
    private let handle: FileHandle
    private let finalPath: String?
    private let temporaryPath: String?
    private var pending: [UInt8] = []
    private var finished = false
    /// Whether bytes have gone to standard output already (they cannot be taken back).
    private var flushedToStandardOutput = false
    /// Keep standard output's bytes in memory until ``commit()``, so that ``rewind()`` always
    /// works (a file output is rewound on disk and needs no holding).
    public var holdsStandardOutput = false

    /// Standard output when `path` is nil or "-", otherwise a new file at `path`.
    /// - Throws: ``CSVError/unwritable(path:detail:)`` when the file cannot be created.
    public init(path: String?) throws(CSVError) {
        guard let path, path != "-" else {
            handle = FileHandle.standardOutput
            finalPath = nil
            temporaryPath = nil
            return
        }
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).partial").path
        guard FileManager.default.createFile(atPath: temporary, contents: nil),
              let handle = FileHandle(forWritingAtPath: temporary) else {
            throw .unwritable(path: path, detail: "cannot create the file (does its folder exist, and may it be written?)")
        }
        self.handle = handle
        finalPath = path
        temporaryPath = temporary
    }

    deinit {
        if !finished { abandon() }
    }

    /// Appends text; flushed in 64 KiB blocks.
    public func write(_ text: String) {
        pending.append(contentsOf: text.utf8)
        if pending.count >= 1 << 16 { flushBlock() }
    }

    /// Appends bytes; flushed in 64 KiB blocks.
    public func write(_ data: Data) {
        pending.append(contentsOf: data)
        if pending.count >= 1 << 16 { flushBlock() }
    }

    /// Appends bytes; flushed in 64 KiB blocks.
    public func write(_ bytes: [UInt8]) {
        pending.append(contentsOf: bytes)
        if pending.count >= 1 << 16 { flushBlock() }
    }

    private func flushBlock() {
        if holdsStandardOutput && finalPath == nil { return }
        flush()
    }

    private func flush() {
        guard !pending.isEmpty else { return }
        handle.write(Data(pending))
        pending.removeAll(keepingCapacity: true)
        if finalPath == nil { flushedToStandardOutput = true }
    }

    /// Throws away everything written so far, so that the output can be written again from
    /// the start. False when part of it has already gone to standard output.
    public func rewind() -> Bool {
        guard !flushedToStandardOutput else { return false }
        pending.removeAll(keepingCapacity: true)
        guard finalPath != nil else { return true }
        do {
            try handle.truncate(atOffset: 0)
            return true
        } catch {
            return false
        }
    }

    /// Flushes and, for a file, moves it into place.
    public func commit() throws(CSVError) {
        flush()
        finished = true
        guard let finalPath, let temporaryPath else { return }
        try? handle.close()
        // rename(2) replaces an existing file atomically; FileManager.replaceItemAt does not
        // on Linux (it can fail after removing the original).
        if rename(temporaryPath, finalPath) != 0 {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(atPath: temporaryPath)
            throw .unwritable(path: finalPath, detail: reason)
        }
    }

    /// Discards a file output (standard output is left as it is).
    public func abandon() {
        finished = true
        guard let temporaryPath else { return }
        try? handle.close()
        try? FileManager.default.removeItem(atPath: temporaryPath)
    }
}
