/// An entry into a zone: the time at which a sequence of zones changed into a non-empty zone.
public struct ZoneEntry: Sendable, Hashable {
    /// When, seconds.
    public var time: Double
    /// The zone entered.
    public var zone: String

    /// An entry at `time` (seconds) into `zone`.
    public init(time: Double, zone: String) {
        self.time = time
        self.zone = zone
    }

    /// The entries of a time-ordered sequence of zones ("" for none): each change into a
    /// non-empty zone, after the first element (the state a sequence starts in is not an
    /// entry). zones.py `entries`.
    public static func entries(of sequence: [(time: Double, zone: String)]) -> [ZoneEntry] {
        var result: [ZoneEntry] = []
        var previous: String?
        for (k, element) in sequence.enumerated() {
            if k > 0, element.zone != previous, !element.zone.isEmpty {
                result.append(ZoneEntry(time: element.time, zone: element.zone))
            }
            previous = element.zone
        }
        return result
    }
}
