/// The plan's beacons in a flat array, with the path-loss model each one is solved with
/// (calibration overrides, then the plan's values), so that an epoch refers to beacons by index.
struct BeaconTable: Sendable {
    struct Entry: Sendable {
        var beacon: ResolvedBeacon
        var model: PathLossModel
    }

    private(set) var entries: [Entry] = []
    private var index: [BeaconIdentity: Int] = [:]
    /// Levels of the plan in order, with their floor's elevation and outline.
    private(set) var floors: [Int: Floor] = [:]

    init(plan: FloorPlan, calibration: [BeaconIdentity: PathLossModel], sampleSigma: Double?) {
        var levels = Set<Int>()
        var perLevel: [Int: Int] = [:]
        for floor in plan.floors {
            floors[floor.level] = floor
            for beacon in floor.beacons {
                guard let resolved = plan.resolvedBeacon(beacon.identity) else { continue }
                var model = calibration[beacon.identity] ?? PathLossModel(resolved)
                if let sampleSigma { model.sigma = sampleSigma }
                index[beacon.identity] = entries.count
                entries.append(Entry(beacon: resolved, model: model))
                levels.insert(resolved.level)
                perLevel[resolved.level, default: 0] += 1
            }
        }
        isMultiFloor = levels.count > 1
        beaconsPerLevel = perLevel
        isCalibrated = !calibration.isEmpty
    }

    /// Each beacon's level, in table order.
    var levels: [Int] { entries.map(\.beacon.level) }

    /// How many beacons the plan places on `level`.
    func count(onLevel level: Int) -> Int { beaconsPerLevel[level] ?? 0 }

    private let beaconsPerLevel: [Int: Int]
    /// Whether calibrated path-loss models were given (rather than the plan's values alone).
    let isCalibrated: Bool

    /// The index of a beacon, or nil when it is not in the plan. O(1).
    func slot(of identity: BeaconIdentity) -> Int? { index[identity] }

    subscript(slot: Int) -> Entry { entries[slot] }

    var count: Int { entries.count }

    /// Whether the plan has more than one floor with beacons.
    let isMultiFloor: Bool
}
