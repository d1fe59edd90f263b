/// How long a monitor held two zones at once: zones.py `longest_overlap`.
public enum ZoneOverlap {
    /// The longest time, seconds, during which two or more of the regions `zones` were satisfied
    /// at once for one device, from `events` (``RegionEvent/read(path:)``'s output; other regions
    /// are ignored). Per device, events are taken in time order (stably); `satisfied` adds the
    /// region, `unsatisfied` removes it. A stretch counts from the event that made two or more
    /// satisfied to the event that brought it back under two; one still open at the device's
    /// last event does not count. 0 when no stretch closes.
    public static func longest(in events: [RegionEvent], zones: Set<String>) -> Double {
        var byDevice: [String: [RegionEvent]] = [:]
        for event in events where zones.contains(event.region) { byDevice[event.device, default: []].append(event) }
        var longest = 0.0
        for deviceEvents in byDevice.values {
            var inside: Set<String> = []
            var since: Double?
            let ordered = deviceEvents.enumerated().sorted {
                $0.element.timestamp != $1.element.timestamp
                    ? $0.element.timestamp < $1.element.timestamp : $0.offset < $1.offset
            }
            for (_, event) in ordered {
                if event.state == .satisfied {
                    inside.insert(event.region)
                } else {
                    inside.remove(event.region)
                }
                if inside.count >= 2, since == nil {
                    since = event.timestamp
                } else if inside.count < 2, let start = since {
                    longest = max(longest, event.timestamp - start)
                    since = nil
                }
            }
        }
        return longest
    }
}
