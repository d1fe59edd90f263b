import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The temporary files of the outputs being written (and of piped inputs, see `SpooledInput`),
/// removed when the process is interrupted (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2,
/// SIGALRM: every signal whose default action ends the process and that a user or a job
/// system sends) so that no hidden `.NAME.PID.partial` is left behind; the process then says
/// so in one line on standard error and exits with status 128 + the signal's number, as a shell
/// reports a process killed by it. SIGQUIT used to reach the Swift runtime's crash handler,
/// which printed "Program crashed" with a backtrace and let the run go on to exit 0.
///
/// SIGXFSZ (a write beyond the file-size limit, `ulimit -f`) is ignored instead, so that the
/// write fails with EFBIG and the command stops as for a full disk, with a message, status 1
/// and no temporary file (it used to kill the process with status 153 and no word).
///
/// The signals are blocked and taken by a thread of their own with `sigwait`, so the
/// removal runs on an ordinary thread, not in a signal handler, and no signal is lost: a blocked
/// signal stays pending until that thread takes it. (The first version ignored the signals and
/// watched them with dispatch sources, which arm asynchronously: a signal sent in the moment
/// after the first temporary file appeared was discarded, and the run finished with exit 0.)
/// A signal mask is inherited by the threads a thread starts, so ``install()`` must run before
/// any other thread starts for every thread to block them; `indoorpos` calls it first thing in
/// `main`. An output opened without it installs it then (best effort: a thread started earlier
/// may still take a signal with its default action). SIGKILL cannot be caught: it leaves the
/// temporary file (never the output itself, which appears only on success).
public final class PartialFiles: @unchecked Sendable {
    /// The one watcher of the process.
    public static let shared = PartialFiles()

    private let lock = NSLock()
    private var paths: Set<String> = []
    private var installed = false

    private static func signals() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for number in handledSignals { sigaddset(&set, number) }
        return set
    }

    /// The signals that remove the temporary files and end the process.
    public static let handledSignals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM]

    /// The signal's name, such as `SIGTERM`.
    static func name(of number: Int32) -> String {
        switch number {
        case SIGINT: return "SIGINT"
        case SIGTERM: return "SIGTERM"
        case SIGHUP: return "SIGHUP"
        case SIGQUIT: return "SIGQUIT"
        case SIGUSR1: return "SIGUSR1"
        case SIGUSR2: return "SIGUSR2"
        case SIGALRM: return "SIGALRM"
        default: return "signal \(number)"
        }
    }

    /// Blocks the ``handledSignals`` in the calling thread (and so in every thread it starts
    /// later) and takes them on a thread of its own: from then on each of them removes the
    /// registered temporary files, prints one line and exits with status 128 + its number; and
    /// ignores SIGXFSZ, so that a write beyond the file-size limit fails as an error. Call it
    /// before any other thread starts; later calls do nothing.
    public func install() {
        lock.lock()
        defer { lock.unlock() }
        guard !installed else { return }
        installed = true
        signal(SIGXFSZ, SIG_IGN)
        var set = Self.signals()
        pthread_sigmask(SIG_BLOCK, &set, nil)
        let taker = Thread { [self] in
            var set = Self.signals()
            var number: Int32 = 0
            while sigwait(&set, &number) != 0 {}
            interrupted(by: number)
        }
        taker.name = "indoorpos signals"
        taker.start()
    }

    /// Starts watching `path` (installing the signal thread if nothing has yet).
    func register(_ path: String) {
        install()
        lock.lock()
        defer { lock.unlock() }
        paths.insert(path)
    }

    /// Creates (or, unless `exclusive`, truncates) the temporary file `path` for writing and
    /// watches it, registered before it exists so that a signal at any moment removes it. Made
    /// with open(2), not `FileManager.createFile`, which on Linux writes through a hidden
    /// `.dat.nosync…` file of its own that an interruption would leave behind.
    /// - Returns: the open descriptor, or nil (and nothing watched) when it cannot be created.
    func create(_ path: String, exclusive: Bool, mode: mode_t) -> Int32? {
        register(path)
        let descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | (exclusive ? O_EXCL : O_TRUNC), mode)
        guard descriptor >= 0 else {
            let code = errno
            unregister(path)
            errno = code
            return nil
        }
        return descriptor
    }

    /// Stops watching `path` (committed or abandoned).
    func unregister(_ path: String) {
        lock.lock()
        defer { lock.unlock() }
        paths.remove(path)
    }

    /// Removes the files and ends the process. The lock stays held to the end, so that no
    /// temporary file is created (each is registered first) after the removal.
    private func interrupted(by number: Int32) {
        lock.lock()
        for path in paths { unlink(path) }
        paths.removeAll()
        let message = Array(
            "indoorpos: stopped by \(Self.name(of: number)); no output file was written or changed\n".utf8)
        _ = message.withUnsafeBufferPointer { write(STDERR_FILENO, $0.baseAddress, $0.count) }
        exit(128 + number)
    }
}
