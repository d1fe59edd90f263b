/// A debounce of a zone sequence: a zone is taken once it has been the zone of `count`
/// consecutive elements; the first element's zone is taken at once. zones.py `debounced`.
public enum ZoneDebounce {
    /// The consecutive elements a zone needs before it is taken, by default.
    public static let defaultCount = 3

    /// The zone held after each element of `zones` (in time order, "" for none), one per element.
    public static func debounced(_ zones: [String], count: Int = ZoneDebounce.defaultCount) -> [String] {
        var result: [String] = []
        result.reserveCapacity(zones.count)
        var held: String?
        var candidate: String?
        var run = 0
        for zone in zones {
            if zone == candidate {
                run += 1
            } else {
                candidate = zone
                run = 1
            }
            if held == nil || run >= count { held = candidate }
            result.append(held ?? zone)
        }
        return result
    }
}
