extension Array where Element == Double {
    /// The k-th smallest element (0-based; the value `sorted()[k]` would give), found by
    /// quickselect with the median-of-three pivot: O(n) on average, in place, no allocation.
    /// The order of the elements is changed. `k` must be a valid index; no element may be NaN.
    mutating func selectInPlace(_ k: Int) -> Double {
        var low = 0, high = count - 1
        while low < high {
            let middle = low + (high - low) / 2
            // Median of three as the pivot.
            if self[middle] < self[low] { swapAt(middle, low) }
            if self[high] < self[low] { swapAt(high, low) }
            if self[high] < self[middle] { swapAt(high, middle) }
            let pivot = self[middle]
            var i = low, j = high
            while i <= j {
                while self[i] < pivot { i += 1 }
                while pivot < self[j] { j -= 1 }
                if i <= j {
                    swapAt(i, j)
                    i += 1
                    j -= 1
                }
            }
            if k <= j {
                high = j
            } else if k >= i {
                low = i
            } else {
                return self[k]
            }
        }
        return self[k]
    }
}
