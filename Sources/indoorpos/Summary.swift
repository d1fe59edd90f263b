import Foundation
import PositioningIO

/// The one-paragraph account of a `locate` run on standard error: what was read, skipped and
/// produced.
struct Summary {
    let counts: RSSISampleReader.Counts
    let statistics: PositioningEngine.Statistics
    let sorted: Bool
    /// Beacons set apart at the end as inconsistent with the tracks.
    let setApart: [BeaconIdentity]

    /// What was read and skipped, for the error when nothing was usable.
    var skippedText: String {
        let read = "\(counts.read) samples read"
        return skipped.isEmpty ? read + ", none skipped" : read + "; skipped " + skipped.joined(separator: ", ")
    }

    /// Each kind of skipped row with its count.
    private var skipped: [String] {
        var skipped: [String] = []
        if counts.noReading > 0 { skipped.append("\(counts.noReading) with no reading (rssi 0 or 127)") }
        if statistics.invalidRSSI > 0 { skipped.append("\(statistics.invalidRSSI) with an implausible rssi") }
        if statistics.unknownBeacon > 0 { skipped.append("\(statistics.unknownBeacon) of beacons not in the plan") }
        if statistics.invalidTime > 0 { skipped.append("\(statistics.invalidTime) with an unusable timestamp") }
        if statistics.late > 0 { skipped.append("\(statistics.late) too late for their epoch") }
        if counts.badRows > 0 {
            skipped.append("\(counts.badRows) malformed row(s), the first: \(counts.firstBadRow.map(String.init(describing:)) ?? "")")
        }
        return skipped
    }

    func print() {
        var text = "locate: \(counts.read) samples, \(statistics.accepted) used, \(statistics.reports) positions"
        if sorted { text += " (input sorted in memory: rows were not in time order)" }
        text += skipped.isEmpty ? "; none skipped\n" : "; skipped " + skipped.joined(separator: ", ") + "\n"
        if !setApart.isEmpty {
            text += "locate: set apart at the end, readings inconsistent with the tracks (moved, spoofed or obstructed?): "
                + setApart.map(\.description).joined(separator: ", ") + "\n"
        }
        FileHandle.standardError.write(Data(text.utf8))
    }
}
