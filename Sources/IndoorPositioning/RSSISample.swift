/// One RSSI reading of one beacon by one device, as ranging delivers it.
public struct RSSISample: Sendable, Hashable, Codable {
    /// Time of the reading, seconds (any epoch, fractional).
    public var timestamp: Double
    /// The beacon heard.
    public var identity: BeaconIdentity
    /// Received signal strength, dBm (negative; 0 and 127 mean "no reading").
    public var rssi: Double
    /// The receiving device, for inputs that mix several; nil for a single device.
    public var device: String?
    /// What the phone's own activity recognition said about its user at this time, if the app
    /// has it (the RSSI CSV's optional `activity` column). The engine weighs the device's
    /// motion modes with the latest hint of each epoch (`ActivityHint`); it takes effect only
    /// with motion modes on (`PositioningEngine.Configuration.tracker.motionModes`).
    public var activity: ActivityHint?

    public init(
        timestamp: Double, identity: BeaconIdentity, rssi: Double, device: String? = nil,
        activity: ActivityHint? = nil
    ) {
        self.timestamp = timestamp
        self.identity = identity
        self.rssi = rssi
        self.device = device
        self.activity = activity
    }
}
