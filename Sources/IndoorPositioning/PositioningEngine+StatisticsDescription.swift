import Foundation

extension PositioningEngine.Statistics: CustomStringConvertible {
    /// One short line of the counts, for a log or `print(engine.statistics)`: samples used and
    /// skipped by cause, reports (fallbacks and restarts among them), epochs without a report,
    /// the variance factor and how many fixes the detection sample holds. The detection scans
    /// themselves (``detections``) are left out: `dump(_:)` shows every field.
    public var description: String {
        var parts = ["\(accepted) samples used"]
        let skipped = [
            (unknownBeacon, "unknown beacon"), (invalidRSSI, "no reading"), (invalidTime, "bad time"),
            (late, "late")
        ]
        .filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }
        if !skipped.isEmpty { parts.append("skipped: " + skipped.joined(separator: ", ")) }
        var reported = "\(reports) reports"
        if fallbackReports > 0 { reported += " (\(fallbackReports) fallbacks)" }
        parts.append(reported)
        if epochsWithoutReport > 0 { parts.append("\(epochsWithoutReport) epochs without a report") }
        if trackRestarts > 0 { parts.append("\(trackRestarts) track restarts") }
        if releasedDevices > 0 { parts.append("\(releasedDevices) devices released") }
        if activityHints > 0 { parts.append("\(activityHints) activity hints") }
        if learnedModelUpdates > 0 { parts.append("learned models taken into use \(learnedModelUpdates)×") }
        if let factor = varianceFactor {
            parts.append(String(format: "variance factor %.2f over %d dof", factor, fitDegreesOfFreedom))
        }
        if !detections.isEmpty { parts.append("\(detections.fixes) fixes recorded for the detection curve") }
        return parts.joined(separator: "; ")
    }
}
