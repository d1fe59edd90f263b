extension RSSISample {
    /// The largest timestamp magnitude the engine accepts, seconds: 10¹⁰ s (about the year 2286
    /// as a Unix time). Beyond it a `Double` can no longer resolve the shortest epoch reliably,
    /// and a clock in milliseconds (about 1.7 × 10¹²) or nanoseconds (about 1.7 × 10¹⁸, Android's
    /// scan times) is almost surely a unit mistake; such samples are refused, never looped over.
    public static let timestampLimit: Double = 1e10

    /// Whether `timestamp` is a usable time: finite and within ±``timestampLimit`` seconds.
    public static func isUsableTimestamp(_ timestamp: Double) -> Bool {
        timestamp.isFinite && abs(timestamp) <= timestampLimit
    }
}
