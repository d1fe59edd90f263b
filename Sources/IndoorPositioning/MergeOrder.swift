/// Which of `count` sorted lists gives the next entry of their merge: the index whose next
/// entry has the smallest `key` (nil for a list that is done), the lowest index among equal
/// keys; nil when every list is done. The workers of a ``ShardedPositioningEngine`` merge their
/// reports and effects by tag, and their devices by name, with it.
func firstInMerge<Key: Comparable>(of count: Int, key: (Int) -> Key?) -> Int? {
    var best: Int?
    var bestKey: Key?
    for k in 0..<count {
        guard let candidate = key(k) else { continue }
        if let bestKey, !(candidate < bestKey) { continue }
        best = k
        bestKey = candidate
    }
    return best
}
