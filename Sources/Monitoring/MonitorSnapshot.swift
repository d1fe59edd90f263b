import BeaconModel

/// Everything a ``RegionMonitor`` knows, as a `Codable` value: its settings, every region's
/// record (state, last event, visits) and the evidence under way (recent samples, dwell timers,
/// the latest position). Restoring it after a relaunch and continuing gives exactly the events
/// an uninterrupted monitor would have given: no spurious entries or exits.
///
/// The plan is not part of the snapshot (it is the site's, not the monitor's); restore with the
/// same plan.
public struct MonitorSnapshot: Sendable, Hashable, Codable {
    /// The format this library writes; newer snapshots are refused.
    public static let currentFormatVersion = 1

    /// The format of this snapshot.
    public var formatVersion = MonitorSnapshot.currentFormatVersion
    var hysteresis: Hysteresis
    var plausibility: PlausibilityRule
    var setApartBeacons: [BeaconIdentity]
    var now: Double?
    var lastPosition: PositionObservation?
    var regions: [StoredRegion]

    struct StoredRegion: Sendable, Hashable, Codable {
        var id: String
        var entry: RegionEntry
    }

    /// The records by identifier.
    public var records: [String: MonitorRecord] {
        Dictionary(uniqueKeysWithValues: regions.map { ($0.id, $0.entry.record) })
    }
}

extension RegionMonitor {
    /// The monitor's whole state, for ``init(plan:restoring:)``.
    public func snapshot() -> MonitorSnapshot {
        MonitorSnapshot(
            hysteresis: hysteresis, plausibility: plausibility,
            setApartBeacons: setApartBeacons.sorted(), now: now, lastPosition: lastPosition,
            regions: insertionOrder.map { MonitorSnapshot.StoredRegion(id: $0, entry: armed(entries[$0]!)) })
    }

    /// A monitor in the state `snapshot` recorded.
    /// - Throws: ``MonitorError/invalidSnapshot(detail:)`` for a newer format, and the errors of
    ///   ``add(_:identifier:assuming:parent:hysteresis:)`` when a region does not fit `plan`
    ///   (for example a zone the plan no longer has).
    public init(plan: FloorPlan, restoring snapshot: MonitorSnapshot) throws(MonitorError) {
        guard snapshot.formatVersion <= MonitorSnapshot.currentFormatVersion, snapshot.formatVersion >= 1 else {
            throw .invalidSnapshot(
                detail: "format version \(snapshot.formatVersion) is not 1...\(MonitorSnapshot.currentFormatVersion)")
        }
        try self.init(plan: plan, hysteresis: snapshot.hysteresis, plausibility: snapshot.plausibility)
        for region in snapshot.regions {
            let record = region.entry.record
            guard entries[region.id] == nil else {
                throw .invalidSnapshot(detail: "region \"\(region.id)\" appears twice")
            }
            // Parents may come later in insertion order after a replacement; check them below.
            try validate(
                record.condition, identifier: region.id, parent: nil, hysteresis: record.hysteresis, path: region.id)
            entries.define(region.id, as: region.entry)
            insertionOrder.append(region.id)
        }
        for id in insertionOrder {
            if let parent = entries[id]!.record.parent {
                entries[id]!.record.parent = nil
                try validate(entries[id]!.record.condition, identifier: id, parent: parent, hysteresis: nil, path: id)
                entries[id]!.record.parent = parent
            }
        }
        setApartBeacons = Set(snapshot.setApartBeacons)
        now = snapshot.now
        lastPosition = snapshot.lastPosition
        rebuildEvaluationOrder()
    }
}
