import Foundation

/// Progress of a long batch on standard error, at most about once a second, as samples read
/// and an estimate of the share of the file done (from its size and the bytes per row so far).
final class Progress {
    private let enabled: Bool
    private let fileSize: Int
    private var lastReport = Date()
    private var shown = false
    private var ticks = 0

    init(enabled: Bool, path: String) {
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
        fileSize = size ?? 0
        // About 100,000 rows and more.
        self.enabled = enabled && fileSize >= 4_000_000
    }

    func tick(_ done: Int) {
        guard enabled else { return }
        ticks &+= 1
        guard ticks % 4096 == 0, Date().timeIntervalSince(lastReport) >= 1 else { return }
        lastReport = Date()
        shown = true
        FileHandle.standardError.write(Data("\rlocate: \(done) samples".utf8))
    }

    func done() {
        if shown { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
