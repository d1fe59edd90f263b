import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a command writes: standard output, or a file that appears only when the command
/// succeeds (written to a temporary file beside it and moved into place on ``commit()``), so a
/// failure never leaves a partial output file behind and an existing file stays as it was.
///
/// Every write is checked. The first failure (a full disk, a closed pipe) is kept in
/// ``failure``, later writes are dropped, and ``commit()`` throws it after removing the
/// temporary file. An existing path that is not a regular file (`/dev/null`, a FIFO,
/// `/dev/stdout`) is written in place, as there is no file to replace; a symbolic link to a
/// regular file keeps its link and has its target replaced. An existing file keeps its mode; one
/// that is read-only or may not be written is refused. SIGINT, SIGTERM and SIGHUP remove the
/// temporary file before the process exits (see `PartialFiles`).
public final class OutputFile {
    private let handle: FileHandle
    private let finalPath: String?
    private let temporaryPath: String?
    private let label: String
    private var pending: [UInt8] = []
    private var finished = false
    /// The first write error, if any: once set, nothing more is written and ``commit()`` throws it.
    public private(set) var failure: FileError?
    /// Whether bytes have gone to standard output already (they cannot be taken back).
    private var flushedToStandardOutput = false
    /// Keep standard output's bytes in memory until ``commit()``, so that ``rewind()`` always
    /// works (a file output is rewound on disk and needs no holding).
    public var holdsStandardOutput = false

    /// Standard output when `path` is nil or "-", otherwise a new file at `path`.
    /// - Throws: ``FileError/unwritable(path:detail:)`` when the file cannot be created.
    public init(path: String?) throws(FileError) {
        guard let path, path != "-" else {
            handle = FileHandle.standardOutput
            finalPath = nil
            temporaryPath = nil
            label = "standard output"
            return
        }
        label = path
        if let kind = Self.fileType(path), kind != S_IFREG {
            guard let handle = FileHandle(forWritingAtPath: path) else {
                throw .unwritable(path: path, detail: "cannot open it for writing")
            }
            self.handle = handle
            finalPath = nil
            temporaryPath = nil
            return
        }
        let url = URL(fileURLWithPath: path).resolvingSymlinksInPath()
        // An existing file keeps its mode, and one that may not be written is refused (root
        // may write anything, so a file without any write bit counts as read-only too).
        var existing = stat()
        let exists = stat(url.path, &existing) == 0
        if exists {
            if existing.st_mode & 0o222 == 0 {
                throw .unwritable(
                    path: path,
                    detail:
                        "it is read-only (mode \(String(existing.st_mode & 0o777, radix: 8))); make it writable or write elsewhere"
                )
            }
            if access(url.path, W_OK) != 0 {
                throw .unwritable(path: path, detail: "you may not write it (\(String(cString: strerror(errno))))")
            }
        }
        let name = url.lastPathComponent
        guard name.utf8.count <= Self.longestName else {
            throw .unwritable(
                path: path,
                detail:
                    "the file name is \(name.utf8.count) bytes long; a file system takes at most \(Self.longestName)")
        }
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(Self.temporaryName(for: name, process: ProcessInfo.processInfo.processIdentifier))
            .path
        guard let descriptor = PartialFiles.shared.create(temporary, exclusive: false, mode: 0o666) else {
            let code = errno
            guard code == ENOENT || code == EACCES || code == ENOTDIR else {
                throw .unwritable(path: path, detail: "cannot create the file: \(Self.reason(errno: code))")
            }
            throw .unwritable(
                path: path, detail: "cannot create the file (does its folder exist, and may it be written?)")
        }
        if exists { fchmod(descriptor, existing.st_mode & 0o7777) }
        self.handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        finalPath = url.path
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

    private func flush() {
        guard !pending.isEmpty else { return }
        defer { pending.removeAll(keepingCapacity: true) }
        guard failure == nil else { return }
        do {
            try handle.write(contentsOf: pending)
        } catch {
            failure = .unwritable(path: label, detail: Self.reason(error))
        }
        if finalPath == nil { flushedToStandardOutput = true }
    }

    /// Flushes and, for a file, moves it into place.
    /// - Throws: ``FileError/unwritable(path:detail:)`` when a write, the close or the rename
    ///   failed; the temporary file is then removed and an existing file is left as it was.
    public func commit() throws(FileError) {
        flush()
        if let failure {
            abandon()
            throw failure
        }
        finished = true
        guard let finalPath, let temporaryPath else { return }
        defer { PartialFiles.shared.unregister(temporaryPath) }
        do {
            try handle.close()
        } catch {
            try? FileManager.default.removeItem(atPath: temporaryPath)
            throw .unwritable(path: label, detail: Self.reason(error))
        }
        // rename(2) replaces an existing file atomically; FileManager.replaceItemAt does not
        // on Linux (it can fail after removing the original).
        if rename(temporaryPath, finalPath) != 0 {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(atPath: temporaryPath)
            throw .unwritable(path: label, detail: reason)
        }
    }

    /// Discards a file output (standard output is left as it is).
    public func abandon() {
        finished = true
        guard let temporaryPath else { return }
        try? handle.close()
        try? FileManager.default.removeItem(atPath: temporaryPath)
        PartialFiles.shared.unregister(temporaryPath)
    }

    /// The longest file name (one path component) the file systems take, bytes.
    static let longestName = 255

    /// The hidden temporary file beside output `name`: `.NAME.PID.partial`, with NAME cut short
    /// (at a character) when the whole would be longer than ``longestName`` bytes; names of 241
    /// to 255 bytes were refused as if their folder were missing.
    static func temporaryName(for name: String, process: Int32) -> String {
        let suffix = ".\(process).partial"
        var stem = Substring(name)
        while 1 + stem.utf8.count + suffix.utf8.count > longestName { stem = stem.dropLast() }
        return "." + stem + suffix
    }

    /// The type bits (`S_IFREG`, `S_IFCHR`, …) of what `path` names after following links, or
    /// nil when nothing is there.
    static func fileType(_ path: String) -> mode_t? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return info.st_mode & S_IFMT
    }

    /// The system's words for a failed write or close ("No space left on device").
    static func reason(_ error: any Error) -> String {
        let error = error as NSError
        if error.domain == NSPOSIXErrorDomain { return reason(errno: Int32(error.code)) }
        if let underlying = error.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return reason(errno: Int32(underlying.code))
        }
        return error.localizedDescription
    }

    /// The system's words for `code`, with what to do about a file-size limit.
    static func reason(errno code: Int32) -> String {
        let words = String(cString: strerror(code))
        return code == EFBIG ? words + " (the file-size limit, see ulimit -f, was reached)" : words
    }
}
