/// Order statistics of a sample, as `numpy.percentile` computes them (linear interpolation
/// between closest ranks, "type 7" of Hyndman and Fan 1996).
enum SampleStatistics {
    /// The `p`-quantile (0 ≤ p ≤ 1) of `sorted` (ascending, not empty): with h = (n − 1)p,
    /// x[⌊h⌋] + (h − ⌊h⌋)(x[⌊h⌋ + 1] − x[⌊h⌋]).
    static func quantile(sorted: [Double], _ p: Double) -> Double {
        let h = Double(sorted.count - 1) * p
        let low = Int(h.rounded(.down))
        let high = min(low + 1, sorted.count - 1)
        return sorted[low] + (h - Double(low)) * (sorted[high] - sorted[low])
    }

    /// Root mean square of `values` (not empty).
    static func rootMeanSquare(_ values: [Double]) -> Double {
        (values.reduce(0) { $0 + $1 * $1 } / Double(values.count)).squareRoot()
    }
}
