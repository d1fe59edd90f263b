import Foundation

/// Progress of a long batch on standard error, at most about once a second.
final class Progress {
    private let enabled: Bool
    private let total: Int
    private var lastReport = Date()
    private var shown = false

    init(enabled: Bool, total: Int) {
        self.enabled = enabled && total >= 100_000
        self.total = total
    }

    func tick(_ done: Int) {
        guard enabled, done % 4096 == 0, Date().timeIntervalSince(lastReport) >= 1 else { return }
        lastReport = Date()
        shown = true
        let percent = total > 0 ? 100 * Double(done) / Double(total) : 0
        FileHandle.standardError.write(Data(String(format: "\rlocate: %d of %d samples (%.0f %%)", done, total, percent).utf8))
    }

    func done() {
        if shown { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
