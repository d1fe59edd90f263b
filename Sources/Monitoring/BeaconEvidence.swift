/// The evidence of one beacon condition: recent entry-quality samples and the last sample
/// that keeps the region satisfied. A value that the monitor feeds and asks for transitions.
struct BeaconEvidence: Sendable, Hashable, Codable {
    /// Times of the latest samples at or above the entry threshold (at most `enterCount`).
    var entryTimes: [Double] = []
    /// Time of the latest sample at or above the exit threshold.
    var lastPresence: Double?
    /// Since when silence is counted when no sample has kept the region (the time it was
    /// armed or the monitor first saw input).
    var since: Double?

    /// Takes one matching sample; returns true when it completes the entry evidence.
    mutating func observe(time: Double, rssi: Double, rule: Hysteresis.BeaconRule) -> Bool {
        if rssi >= (rule.exitRSSI ?? -.infinity) { lastPresence = max(lastPresence ?? time, time) }
        guard rssi >= (rule.enterRSSI ?? -.infinity) else { return false }
        entryTimes.append(time)
        entryTimes.removeAll { $0 < time - rule.enterWindow }
        if entryTimes.count > rule.enterCount { entryTimes.removeFirst(entryTimes.count - rule.enterCount) }
        return entryTimes.count >= rule.enterCount
    }

    /// When a region in `state` becomes unsatisfied without further samples: the last
    /// presence (or the arming time) plus the exit delay; nil when already unsatisfied or not
    /// yet armed.
    func exitDeadline(state: MonitorState, rule: Hysteresis.BeaconRule) -> Double? {
        guard state != .unsatisfied, let reference = lastPresence ?? since else { return nil }
        return reference + rule.exitDelay
    }
}

/// The evidence of one circle or zone: since when the position has been clearly outside.
struct PositionEvidence: Sendable, Hashable, Codable {
    /// The time of the first of an unbroken run of positions outside by the exit margin.
    var outsideSince: Double?

    /// Takes one position of signed depth `depth` (metres, positive inside; −∞ on another
    /// floor) and 1-sigma `accuracy`; returns the state it moves a region in `state` to, if any.
    mutating func observe(
        time: Double, depth: Double, accuracy: Double, state: MonitorState,
        rule: Hysteresis.PositionRule
    ) -> MonitorState? {
        guard accuracy.isFinite, accuracy >= 0, accuracy <= rule.maximumAccuracy, !depth.isNaN else { return nil }
        let slack = rule.accuracyWeight * accuracy
        if depth - slack >= rule.enterMargin {
            outsideSince = nil
            return state == .satisfied ? nil : .satisfied
        }
        guard -depth - slack >= rule.exitMargin else {
            outsideSince = nil
            return nil
        }
        switch state {
        case .unsatisfied: return nil
        case .unknown: return .unsatisfied
        case .satisfied:
            let start = outsideSince ?? time
            outsideSince = start
            guard time - start >= rule.exitDwell else { return nil }
            outsideSince = nil
            return .unsatisfied
        }
    }
}
