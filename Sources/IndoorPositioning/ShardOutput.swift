/// What a ``ShardWorker`` made of its rows: the reports in order with their tags, or, with a
/// ``ShardedPositioningEngine/ReportEncoder``, their bytes one after the other and where each
/// ends in place of the reports.
struct ShardOutput {
    var reports: [PositionReport] = []
    var reportTags: [Int] = []
    var encoded: [UInt8] = []
    var encodedEnds: [Int] = []

    /// Takes `engine`'s reports (or their bytes) under `tag`.
    mutating func collect(
        from engine: inout PositioningEngine, tag: Int, encoder: ShardedPositioningEngine.ReportEncoder?
    ) {
        guard !engine.ready.isEmpty else { return }
        if let encoder {
            for report in engine.ready {
                encoder(report, &encoded)
                encodedEnds.append(encoded.count)
            }
        } else {
            reports.append(contentsOf: engine.ready)
        }
        reportTags.append(contentsOf: repeatElement(tag, count: engine.ready.count))
        engine.ready.removeAll(keepingCapacity: true)
    }

    /// Empties the lists, keeping their storage.
    mutating func removeAll() {
        reports.removeAll(keepingCapacity: true)
        reportTags.removeAll(keepingCapacity: true)
        encoded.removeAll(keepingCapacity: true)
        encodedEnds.removeAll(keepingCapacity: true)
    }
}
