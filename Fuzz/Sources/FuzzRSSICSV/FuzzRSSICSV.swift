import Foundation
import FuzzSupport
import PositioningIO

/// RSSI samples CSV: any text either reads as samples with finite, usable values or throws a
/// `FileError`; with skipBadRows it never throws after the header.
func fuzz(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: count), as: UTF8.self)
    for skip in [false, true] {
        guard let reader = try? RSSISampleReader(csv: CSVReader(text: text), skipBadRows: skip) else { return 0 }
        var rows = 0
        do {
            while let sample = try reader.next() {
                if !RSSISample.isUsableTimestamp(sample.timestamp) || !sample.rssi.isFinite {
                    fatalError("broken promise: reader returned timestamp \(sample.timestamp), rssi \(sample.rssi)")
                }
                rows += 1
            }
        } catch {
            if skip { fatalError("broken promise: skipBadRows threw \(error)") }
            _ = String(describing: error)
        }
        if rows != reader.counts.read { fatalError("broken promise: counted \(reader.counts.read), returned \(rows)") }
    }
    return 0
}

@_cdecl("FuzzRSSICSV_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv) { data, count in fuzz(data!, count) }
}
