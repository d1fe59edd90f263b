// The bridges between the engine's types and the monitor's inputs, so that a `RegionMonitor`
// can be fed straight from ranging samples and the engine's reports.

extension BeaconSighting {
    /// The sighting of an RSSI sample (its device is the caller's business: one monitor per device).
    public init(_ sample: RSSISample) {
        self.init(time: sample.timestamp, identity: sample.identity, rssi: sample.rssi)
    }
}

extension PositionObservation {
    /// The observation of a position report: its time, planar position, level and accuracy, and
    /// its `zone` as the decision zone conditions follow (`PositionObservation.decidesZones`),
    /// so that a monitor's zone regions agree with the reports' zones.
    public init(_ report: PositionReport) {
        self.init(
            time: report.timestamp, position: report.position.planar, level: report.level,
            accuracy: report.accuracy, zone: report.zone, decidesZones: true)
    }
}

extension RegionMonitor {
    /// Feeds one RSSI sample as a beacon sighting.
    public mutating func observe(_ sample: RSSISample) -> [MonitorEvent] {
        observe(BeaconSighting(sample))
    }

    /// Feeds one position report as a position observation.
    public mutating func observe(_ report: PositionReport) -> [MonitorEvent] {
        observe(PositionObservation(report))
    }

    /// Takes the beacons that `engine`'s consistency watch has set apart, so that entries they
    /// cause are flagged `PlausibilityFlag.setApart`.
    public mutating func takeSetApartBeacons(from engine: PositioningEngine) {
        setApartBeacons = Set(engine.inconsistentBeacons)
    }
}

extension AsyncRegionMonitor {
    /// Feeds one RSSI sample as a beacon sighting.
    @discardableResult
    public func observe(_ sample: RSSISample) -> [MonitorEvent] { observe(BeaconSighting(sample)) }

    /// Feeds one position report as a position observation.
    @discardableResult
    public func observe(_ report: PositionReport) -> [MonitorEvent] { observe(PositionObservation(report)) }
}
