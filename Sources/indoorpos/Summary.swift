import Foundation
import PositioningIO

/// The one-paragraph account of a `locate` run on standard error: what was read, skipped and
/// produced.
struct Summary {
    let result: BatchResult

    func print() {
        let counts = result.counts, statistics = result.statistics
        var text = "locate: \(counts.read) samples, \(statistics.accepted) used, \(statistics.reports) positions"
        if statistics.fallbackReports > 0 {
            text +=
                " (\(statistics.fallbackReports) of them fallbacks: too few beacons, or beacons in a line, for a fix)"
        }
        if result.sorted { text += " (input sorted in memory: rows were not in time order)" }
        text += result.unreported.map { "; " + $0 } ?? ""
        text +=
            result.skipped.isEmpty ? "; none skipped\n" : "; skipped " + result.skipped.joined(separator: ", ") + "\n"
        if let note = result.activityNote { text += "locate: \(note)\n" }
        if let detection = result.detection { text += "locate: \(detection.summary)\n" }
        if let learned = result.learnedDetectionSummary { text += "locate: \(learned)\n" }
        if let factor = statistics.varianceFactor {
            text +=
                "locate: the fixes' residuals scatter \(String(format: "%.1f", factor))× the variance the models expect (χ²/dof over \(statistics.fitDegreesOfFreedom) degrees of freedom)\n"
        }
        if !result.setApart.isEmpty {
            text +=
                "locate: set apart at the end, readings inconsistent with the tracks (moved, spoofed or obstructed?): "
                + result.setApart.map(\.description).joined(separator: ", ") + "\n"
        }
        FileHandle.standardError.write(Data(text.utf8))
    }
}
