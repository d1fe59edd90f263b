import BeaconModel

/// The state of a monitored region, as `CLMonitor.Event.State`.
public enum MonitorState: String, Sendable, Hashable, Codable {
    /// Not yet decided (no evidence either way since the region was added).
    case unknown
    /// The device is in the region (beacon heard, position inside).
    case satisfied
    /// The device is not in the region.
    case unsatisfied
}

/// Why an entry was marked implausible (a possible spoofed or moved beacon).
public enum PlausibilityFlag: String, Sendable, Hashable, Codable {
    /// The beacon is on another floor than the tracked position.
    case otherFloor = "other-floor"
    /// The tracked position is farther from the beacon than its RSSI allows under the beacon's
    /// path-loss model, even with the position's uncertainty and three sigma of shadowing.
    case outOfRange = "out-of-range"
    /// The positioning engine's consistency watch has set the beacon apart.
    case setApart = "set-apart"
}

/// A change of a region's state. Events are emitted only when the state changes.
public struct MonitorEvent: Sendable, Hashable, Codable {
    /// The region's identifier.
    public var identifier: String
    /// The new state.
    public var state: MonitorState
    /// When the change happened, seconds, on the inputs' clock: the time of the sample or
    /// position that caused it, or for a beacon exit the last matching sample's time plus the
    /// exit delay.
    public var date: Double
    /// For a beacon condition entered: the concrete identity whose samples satisfied it (useful
    /// for wildcard conditions).
    public var refinement: BeaconIdentity?
    /// Set when a beacon entry is implausible given the tracked position (see
    /// ``PlausibilityFlag``); the event is delivered anyway, so that the app decides.
    public var flag: PlausibilityFlag?

    public init(
        identifier: String, state: MonitorState, date: Double,
        refinement: BeaconIdentity? = nil, flag: PlausibilityFlag? = nil
    ) {
        self.identifier = identifier
        self.state = state
        self.date = date
        self.refinement = refinement
        self.flag = flag
    }
}
