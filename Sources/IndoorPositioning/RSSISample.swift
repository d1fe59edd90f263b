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

    public init(timestamp: Double, identity: BeaconIdentity, rssi: Double, device: String? = nil) {
        self.timestamp = timestamp
        self.identity = identity
        self.rssi = rssi
        self.device = device
    }
}
