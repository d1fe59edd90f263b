/// The plan's beacons in a flat array, with the path-loss model each one is solved with
/// (calibration overrides, then the plan's values), so that an epoch refers to beacons by index.
struct BeaconTable: Sendable {
    struct Entry: Sendable {
        var beacon: ResolvedBeacon
        var model: PathLossModel
        /// Whether the model was measured for this beacon (given in a calibration, or learned
        /// from traffic) rather than the plan's values.
        var isMeasured: Bool
        /// How uncertain the model is (its P₀ and n standard errors), when stated; the reported
        /// radius considers it (``ModelMisfit``).
        var uncertainty: PathLossUncertainty?
    }

    private(set) var entries: [Entry] = []
    /// Levels of the plan in order, with their floor's elevation and outline, and their walls
    /// each with its attenuation resolved (its own, else the plan's default, else the standard).
    private(set) var floors: [Int: Floor] = [:]

    /// The table of `plan`'s beacons with `calibration`'s models where it has them; a wall
    /// without an attenuation of its own or in the plan's defaults takes `wallAttenuation` (dB;
    /// nil: `PlanDefaults.standardWallAttenuation`); `uncertainty` states how uncertain the
    /// models of the beacons it names are.
    init(
        plan: FloorPlan, calibration: [BeaconIdentity: PathLossModel], sampleSigma: Double?,
        wallAttenuation: Double? = nil, uncertainty: [BeaconIdentity: PathLossUncertainty] = [:]
    ) {
        var levels = Set<Int>()
        var perLevel: [Int: Int] = [:]
        for floor in plan.floors {
            floors[floor.level] = plan.defaults.resolvingWalls(of: floor, learned: wallAttenuation)
            for beacon in floor.beacons {
                guard let resolved = plan.resolvedBeacon(beacon.identity) else { continue }
                let model = Self.inForce(
                    calibration[beacon.identity] ?? PathLossModel(resolved), sampleSigma: sampleSigma)
                entries.append(
                    Entry(
                        beacon: resolved, model: model, isMeasured: calibration[beacon.identity] != nil,
                        uncertainty: uncertainty[beacon.identity]))
                levels.insert(resolved.level)
                perLevel[resolved.level, default: 0] += 1
            }
        }
        isMultiFloor = levels.count > 1
        beaconsPerLevel = perLevel
        self.levels = entries.map(\.beacon.level)
        isCalibrated = !calibration.isEmpty
        self.sampleSigma = sampleSigma
        buildLookup()
    }

    /// Each beacon's level, in table order (kept: every new device's track is sized by it).
    let levels: [Int]

    /// How many beacons the plan places on `level`.
    func count(onLevel level: Int) -> Int { beaconsPerLevel[level] ?? 0 }

    private let beaconsPerLevel: [Int: Int]
    /// Whether calibrated path-loss models were given (rather than the plan's values alone).
    let isCalibrated: Bool

    /// The index of a beacon, or nil when it is not in the plan. O(1): an open-addressing table
    /// hashed on major and minor (cheaper per sample than hashing the whole identity).
    func slot(of identity: BeaconIdentity) -> Int? {
        var probe = Self.bucket(identity, mask: lookupMask)
        while true {
            let slot = lookup[probe]
            if slot < 0 { return nil }
            if entries[slot].beacon.identity == identity { return slot }
            probe = (probe + 1) & lookupMask
        }
    }

    /// Slots by bucket (−1: empty), at least twice as many buckets as beacons.
    private var lookup: [Int] = []
    private var lookupMask = 0

    private static func bucket(_ identity: BeaconIdentity, mask: Int) -> Int {
        let key = UInt32(identity.major) << 16 | UInt32(identity.minor)
        return Int((key &* 2_654_435_761) >> 7) & mask
    }

    private mutating func buildLookup() {
        var size = 8
        while size < 2 * entries.count { size *= 2 }
        lookup = Array(repeating: -1, count: size)
        lookupMask = size - 1
        for slot in entries.indices {
            let identity = entries[slot].beacon.identity
            var probe = Self.bucket(identity, mask: lookupMask)
            // A repeated identity takes the later slot, as a dictionary keyed by it did.
            while lookup[probe] >= 0 && entries[lookup[probe]].beacon.identity != identity {
                probe = (probe + 1) & lookupMask
            }
            lookup[probe] = slot
        }
    }

    subscript(slot: Int) -> Entry { entries[slot] }

    /// The configured σ of every sample, when set (it overrides a learned model's σ too).
    private var sampleSigma: Double?

    /// Takes every beacon's model in force from `other` (the same plan), value by value.
    mutating func copyModels(from other: BeaconTable) {
        for slot in entries.indices {
            entries[slot].model = other.entries[slot].model
            entries[slot].isMeasured = other.entries[slot].isMeasured
            entries[slot].uncertainty = other.entries[slot].uncertainty
        }
    }

    /// Puts a learned model in force for the beacon in `slot` (the configured sample σ, if
    /// any, still wins), with how uncertain it is (the consider term's stated model error).
    mutating func setModel(_ model: PathLossModel, uncertainty: PathLossUncertainty?, slot: Int) {
        entries[slot].model = Self.inForce(model, sampleSigma: sampleSigma)
        entries[slot].isMeasured = true
        entries[slot].uncertainty = uncertainty
    }

    /// `model` as the engine uses it: σ replaced by the configured sample σ when set, and no
    /// smaller than `PathLossModel.minimumSigma`.
    private static func inForce(_ model: PathLossModel, sampleSigma: Double?) -> PathLossModel {
        var model = model
        if let sampleSigma { model.sigma = sampleSigma }
        model.sigma = max(model.sigma, PathLossModel.minimumSigma)
        return model
    }

    var count: Int { entries.count }

    /// Whether the plan has more than one floor with beacons.
    let isMultiFloor: Bool
}
