/// The tunable rules that turn noisy evidence into region states. One value serves every kind
/// of region: beacon conditions use the ``beacon`` part, circles and zones the ``position``
/// part. See `Docs/Guide/Monitoring.md` for the reasoning behind each default.
public struct Hysteresis: Sendable, Hashable, Codable {
    /// Entry and exit rules for beacon conditions.
    public var beacon: BeaconRule
    /// Entry and exit rules for circles and zones.
    public var position: PositionRule

    public init(beacon: BeaconRule = BeaconRule(), position: PositionRule = PositionRule()) {
        self.beacon = beacon
        self.position = position
    }

    /// Beacon conditions: enter on `enterCount` matching samples at or above `enterRSSI` within
    /// `enterWindow` seconds; leave when no matching sample at or above `exitRSSI` has come for
    /// `exitDelay` seconds.
    public struct BeaconRule: Sendable, Hashable, Codable {
        /// Matching samples needed to enter (default 2: one stray packet does not enter).
        public var enterCount: Int
        /// Window for the entry count, seconds (default 5).
        public var enterWindow: Double
        /// Weakest RSSI that counts towards entry, dBm; nil: any (default nil).
        public var enterRSSI: Double?
        /// Weakest RSSI that keeps the region satisfied, dBm; nil: any (default nil). Set it
        /// below ``enterRSSI`` for a band of hysteresis in signal strength.
        public var exitRSSI: Double?
        /// Silence before leaving, seconds (default 15: longer than the 10-s packet dropouts
        /// seen on phones, shorter than the ~30 s iOS takes).
        public var exitDelay: Double

        public init(
            enterCount: Int = 2, enterWindow: Double = 5, enterRSSI: Double? = nil,
            exitRSSI: Double? = nil, exitDelay: Double = 15
        ) {
            self.enterCount = enterCount
            self.enterWindow = enterWindow
            self.enterRSSI = enterRSSI
            self.exitRSSI = exitRSSI
            self.exitDelay = exitDelay
        }
    }

    /// Circles and zones, from the signed depth d of the tracked position in the region
    /// (metres, positive inside) and its 1-sigma accuracy a: enter when
    /// d − ``accuracyWeight``·a ≥ ``enterMargin``; leave when −d − ``accuracyWeight``·a ≥
    /// ``exitMargin`` has held for every position over ``exitDwell`` seconds. A position on
    /// another floor is outside every region of this floor. Positions with an accuracy worse
    /// than ``maximumAccuracy`` are ignored: they neither enter nor leave nor interrupt a dwell.
    public struct PositionRule: Sendable, Hashable, Codable {
        /// Depth inside needed to enter, metres (default 0.5).
        public var enterMargin: Double
        /// Distance outside needed to leave, metres (default 1.0).
        public var exitMargin: Double
        /// How long the position must stay outside by the margin before leaving, seconds
        /// (default 4: the iOS rule of "a minimum distance for about 20 seconds" scaled to
        /// walking indoors, about four strides past the boundary).
        public var exitDwell: Double
        /// Multiple of the accuracy added to both margins (default 0.5).
        public var accuracyWeight: Double
        /// Positions less accurate than this are ignored, metres (default 5).
        public var maximumAccuracy: Double

        public init(
            enterMargin: Double = 0.5, exitMargin: Double = 1.0, exitDwell: Double = 4,
            accuracyWeight: Double = 0.5, maximumAccuracy: Double = 5
        ) {
            self.enterMargin = enterMargin
            self.exitMargin = exitMargin
            self.exitDwell = exitDwell
            self.accuracyWeight = accuracyWeight
            self.maximumAccuracy = maximumAccuracy
        }
    }

    /// The first setting that is out of range, as a message naming it; nil when all are valid.
    public var problem: String? {
        let b = beacon, p = position
        if b.enterCount < 1 || b.enterCount > 1000 { return "enterCount must be 1...1000, got \(b.enterCount)" }
        if !(b.enterWindow.isFinite && b.enterWindow >= 0) { return "enterWindow must be ≥ 0 s, got \(b.enterWindow)" }
        if let r = b.enterRSSI, !r.isFinite { return "enterRSSI must be a finite dBm value, got \(r)" }
        if let r = b.exitRSSI, !r.isFinite { return "exitRSSI must be a finite dBm value, got \(r)" }
        if !(b.exitDelay.isFinite && b.exitDelay > 0) { return "exitDelay must be > 0 s, got \(b.exitDelay)" }
        if !(p.enterMargin.isFinite && p.enterMargin >= 0) { return "enterMargin must be ≥ 0 m, got \(p.enterMargin)" }
        if !(p.exitMargin.isFinite && p.exitMargin >= 0) { return "exitMargin must be ≥ 0 m, got \(p.exitMargin)" }
        if !(p.exitDwell.isFinite && p.exitDwell >= 0) { return "exitDwell must be ≥ 0 s, got \(p.exitDwell)" }
        if !(p.accuracyWeight.isFinite && p.accuracyWeight >= 0) {
            return "accuracyWeight must be ≥ 0, got \(p.accuracyWeight)"
        }
        if !(p.maximumAccuracy.isFinite && p.maximumAccuracy > 0) {
            return "maximumAccuracy must be > 0 m, got \(p.maximumAccuracy)"
        }
        return nil
    }
}
