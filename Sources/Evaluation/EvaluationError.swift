import Foundation
import PositioningIO

/// Why an evaluation or a picture could not be made. Messages are one line that says what to fix.
public enum EvaluationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A fixes, truth or events file could not be read; the CSV error names file, line and column.
    case input(FileError)
    /// No fix lies inside its device's truth (time span, gaps, device names).
    case noOverlap(fixes: String, truth: String)
    /// Fixes lie inside the truth's time span, but every one falls in a gap between truth rows
    /// longer than `maxGap` seconds.
    case onlyInGaps(fixes: String, truth: String, count: Int, maxGap: Double)
    /// A setting is out of its range; `detail` says which and why.
    case invalidSetting(String)
    /// The plan has no floor at this level.
    case unknownLevel(Int, available: [Int])
    /// No fix or truth row names this device.
    case unknownDevice(String, available: [String])

    public var description: String {
        switch self {
        case .input(let error):
            return error.description
        case .noOverlap(let fixes, let truth):
            return "\(fixes): no fix falls inside the time span of \(truth); check the timestamps "
                + "(same epoch and units?) and the device names"
        case .onlyInGaps(let fixes, let truth, let count, let maxGap):
            return
                "\(fixes): all \(count) fixes inside the time span of \(truth) fall in gaps between truth rows longer "
                + "than \(String(format: "%g", maxGap)) s (--max-gap); for a receiver held still, give a point's rows equal "
                + "positions or a 'static' column of 1, or raise --max-gap"
        case .invalidSetting(let detail):
            return detail
        case .unknownLevel(let level, let available):
            return
                "level \(level) is not in the plan; its levels are \(available.map(String.init).joined(separator: ", "))"
        case .unknownDevice(let device, let available):
            let names =
                available.isEmpty ? "the files name no devices" : "devices: " + available.joined(separator: ", ")
            return "device '\(device)' is in neither the fixes nor the truth (\(names))"
        }
    }
}
