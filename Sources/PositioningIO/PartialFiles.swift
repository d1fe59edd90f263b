import Dispatch
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The temporary files of the outputs being written (and of piped inputs, see `SpooledInput`),
/// removed when the process is interrupted
/// (SIGINT, SIGTERM, SIGHUP) so that no hidden `.NAME.PID.partial` is left behind; the process
/// then exits with status 128 + the signal's number, as a shell reports a process killed by it.
///
/// The signals are taken with dispatch sources (the default action is turned off while any
/// output is open), so the removal runs on an ordinary thread, not in a signal handler. SIGKILL
/// cannot be caught: it leaves the temporary file (never the output itself, which appears only
/// on success).
final class PartialFiles: @unchecked Sendable {
    static let shared = PartialFiles()

    private let lock = NSLock()
    private var paths: Set<String> = []
    private var sources: [any DispatchSourceSignal] = []
    private static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP]

    /// Starts watching `path`; the first call installs the signal sources.
    func register(_ path: String) {
        lock.lock()
        defer { lock.unlock() }
        paths.insert(path)
        guard sources.isEmpty else { return }
        for number in Self.signals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [weak self] in self?.interrupted(by: number) }
            source.resume()
            sources.append(source)
        }
    }

    /// Stops watching `path` (committed or abandoned).
    func unregister(_ path: String) {
        lock.lock()
        defer { lock.unlock() }
        paths.remove(path)
    }

    private func interrupted(by number: Int32) {
        lock.lock()
        for path in paths { unlink(path) }
        paths.removeAll()
        lock.unlock()
        exit(128 + number)
    }
}
