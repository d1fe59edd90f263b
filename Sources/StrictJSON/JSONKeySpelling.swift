/// Catching misspelled keys in the strict JSON formats (the floor plan, the regions file): a key the format does not know but that
/// is close to one it does (`"beacon"` for `"beacons"`, `"measured_power"` for `"measuredPower"`)
/// is almost always a mistake that would otherwise drop data without a word.
///
/// "Close" is defined so that annotations survive: equal once case, `_` and `-` are ignored, or
/// a Levenshtein distance of at most 1 (keys of 3 to 5 characters) or 2 (6 characters and more).
/// Other unknown keys (`"note"`, `"comment"`, `"x-vendor"`) are annotations and stay ignored.
public enum JSONKeySpelling {
    /// The known key `key` was probably meant to be, or nil when it is not close to any.
    public static func suggestion(for key: String, known: [String]) -> String? {
        guard !known.contains(key) else { return nil }
        let normalised = normalise(key)
        if let match = known.first(where: { normalise($0) == normalised }) { return match }
        guard key.count >= 3 else { return nil }
        var best: (key: String, distance: Int)?
        for candidate in known where candidate.count >= 3 {
            let limit = max(key.count, candidate.count) >= 6 ? 2 : 1
            let distance = levenshtein(Array(key.lowercased()), Array(candidate.lowercased()), limit: limit)
            if distance <= limit, distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        return best?.key
    }

    private static func normalise(_ key: String) -> String {
        key.lowercased().filter { $0 != "_" && $0 != "-" }
    }

    /// Edit distance between `a` and `b`, or `limit + 1` as soon as it must exceed `limit`.
    private static func levenshtein(_ a: [Character], _ b: [Character], limit: Int) -> Int {
        if abs(a.count - b.count) > limit { return limit + 1 }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            current[0] = i
            var rowMinimum = current[0]
            for j in 1...max(b.count, 1) where !b.isEmpty {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                rowMinimum = min(rowMinimum, current[j])
            }
            if rowMinimum > limit { return limit + 1 }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
