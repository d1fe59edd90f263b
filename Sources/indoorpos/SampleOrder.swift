import PositioningIO

/// A first pass over an RSSI file: how far each device's timestamps step back, so that
/// `locate` streams files in time order (constant memory) and sorts only those that need it.
struct SampleOrder {
    /// Data rows read.
    var rows = 0
    /// Whether the file has a device column.
    var hasDevices = false
    /// The largest step back in time within one device, seconds (0 when sorted).
    var largestStepBack = 0.0

    /// Whether streaming with a reorder delay of at most 1 s is exact.
    var streamable: Bool { largestStepBack <= 0.95 }

    static func scan(path: String, skipBadRows: Bool) throws(CSVError) -> SampleOrder {
        let reader = try RSSISampleReader(path: path, skipBadRows: skipBadRows)
        var order = SampleOrder(hasDevices: reader.hasDevices)
        var latest: [String?: Double] = [:]
        while let sample = try reader.next() {
            order.rows += 1
            if let last = latest[sample.device], sample.timestamp < last {
                order.largestStepBack = max(order.largestStepBack, last - sample.timestamp)
            } else {
                latest[sample.device] = sample.timestamp
            }
        }
        return order
    }
}
