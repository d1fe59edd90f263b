/// Beacon exit deadlines in a binary min-heap, ordered by date and then by the region's place
/// in the evaluation order (the order in which a plain scan would find equal deadlines).
///
/// Entries are never updated in place: a region whose deadline moves gets a new entry, and the
/// monitor checks each entry it takes against the region's current deadline, dropping stale ones.
struct DeadlineQueue: Sendable {
    struct Item: Sendable {
        /// When the region leaves without further samples, seconds.
        var date: Double
        /// The region's place in the evaluation order when the item was made.
        var rank: Int
        var id: String

        func precedes(_ other: Item) -> Bool { date < other.date || (date == other.date && rank < other.rank) }
    }

    private var items: [Item] = []

    var isEmpty: Bool { items.isEmpty }
    var count: Int { items.count }
    /// The earliest item.
    var first: Item? { items.first }

    mutating func removeAll() { items.removeAll(keepingCapacity: true) }

    mutating func insert(_ item: Item) {
        items.append(item)
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard items[child].precedes(items[parent]) else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the earliest item.
    mutating func removeFirst() -> Item? {
        guard !items.isEmpty else { return nil }
        items.swapAt(0, items.count - 1)
        let first = items.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < items.count, items[left].precedes(items[smallest]) { smallest = left }
            if right < items.count, items[right].precedes(items[smallest]) { smallest = right }
            guard smallest != parent else { break }
            items.swapAt(parent, smallest)
            parent = smallest
        }
        return first
    }
}
