extension RandomAccessCollection where Index == Int {
    /// The index of the first element whose `key` is at least `value`, in a collection sorted
    /// ascending by `key` (`numpy.searchsorted` side left; Python's `bisect_left`); `endIndex`
    /// when there is none. O(log n).
    func lowerBound(of value: Double, by key: (Element) -> Double) -> Int {
        var low = startIndex, high = endIndex
        while low < high {
            let mid = low + (high - low) / 2
            if key(self[mid]) < value { low = mid + 1 } else { high = mid }
        }
        return low
    }

    /// The index of the first element whose `key` is above `value` (`searchsorted` side right;
    /// `bisect_right`), in a collection sorted ascending by `key`. O(log n).
    func upperBound(of value: Double, by key: (Element) -> Double) -> Int {
        var low = startIndex, high = endIndex
        while low < high {
            let mid = low + (high - low) / 2
            if key(self[mid]) <= value { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
