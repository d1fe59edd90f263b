/// The rows of one slice for one shard of a ``ShardedPositioningEngine``: each sample with its
/// tag (its row's place in the input, by which reports and effects are merged back into input
/// order) and the ``DeviceNameHash`` of its device when the reader had it.
///
/// One value holds the three lists so that the reading thread appends a row with one access to
/// the engine's stored property, not one per list (each such access of a class's property is
/// checked for exclusivity at run time).
struct ShardRows {
    var samples: [RSSISample] = []
    var tags: [Int] = []
    var hashes: [UInt64?] = []

    /// Appends one row.
    mutating func append(_ sample: RSSISample, tag: Int, hash: UInt64?) {
        samples.append(sample)
        tags.append(tag)
        hashes.append(hash)
    }

    /// Empties the lists, keeping their storage.
    mutating func removeAll() {
        samples.removeAll(keepingCapacity: true)
        tags.removeAll(keepingCapacity: true)
        hashes.removeAll(keepingCapacity: true)
    }
}
