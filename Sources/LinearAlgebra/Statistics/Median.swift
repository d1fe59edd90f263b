/// The sample median: the middle value, or the mean of the two middle values.
package enum Median {
    /// The median of `values` (any order, not empty).
    package static func of(_ values: [Double]) -> Double { of(sorted: values.sorted()) }

    /// The median of `sorted` (ascending, not empty).
    package static func of(sorted: [Double]) -> Double {
        let n = sorted.count
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2
    }
}
