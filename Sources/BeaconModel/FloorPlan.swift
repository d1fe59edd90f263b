/// A building: its floors, zones and beacon placements, with defaults for what beacons leave
/// out. Loaded from and saved to the JSON format of `FORMATS.md` (see `FloorPlan+JSON.swift`).
///
/// A plan is validated when it is made: every identity is unique, levels are unique, numbers
/// are finite and plausible, polygons are simple. Lookups by identity are O(1).
public struct FloorPlan: Sendable, Hashable {
    /// The JSON format version this plan was read from or will be written as.
    public static let currentFormatVersion = 1

    /// Human-readable name of the building or site.
    public private(set) var name: String
    /// Values for beacons that leave them out, and the receiver height for 2D solving.
    public private(set) var defaults: PlanDefaults
    /// The floors, in the order given.
    public private(set) var floors: [Floor]
    /// Where the plan lies on the Earth, if known (needed for GeoJSON output).
    public private(set) var georeference: Georeference?

    /// Identity → (floor index, beacon index).
    private var index: [BeaconIdentity: BeaconLocation]

    private struct BeaconLocation: Sendable, Hashable {
        var floor: Int
        var beacon: Int
    }

    /// A validated plan.
    /// - Throws: ``FloorPlanError`` naming the first problem found, with its JSON path.
    public init(
        name: String, defaults: PlanDefaults = PlanDefaults(), floors: [Floor],
        georeference: Georeference? = nil
    ) throws(FloorPlanError) {
        try FloorPlan.validate(defaults: defaults, floors: floors)
        if let georeference { try FloorPlan.validate(georeference, path: "georeference") }
        self.name = name
        self.defaults = defaults
        self.floors = floors
        self.georeference = georeference
        var index: [BeaconIdentity: BeaconLocation] = [:]
        for (f, floor) in floors.enumerated() {
            for (b, beacon) in floor.beacons.enumerated() {
                index[beacon.identity] = BeaconLocation(floor: f, beacon: b)
            }
        }
        self.index = index
    }

    /// All beacons of all floors.
    public var beacons: [Beacon] { floors.flatMap(\.beacons) }

    /// Number of beacons in the plan.
    public var beaconCount: Int { index.count }

    /// The beacon with this identity, if it is in the plan. O(1).
    public func beacon(_ identity: BeaconIdentity) -> Beacon? {
        guard let location = index[identity] else { return nil }
        return floors[location.floor].beacons[location.beacon]
    }

    /// The beacon with this identity resolved for solving: absolute position (floor elevation
    /// added to its height) and path-loss parameters with the plan's defaults filled in. O(1).
    public func resolvedBeacon(_ identity: BeaconIdentity) -> ResolvedBeacon? {
        guard let location = index[identity] else { return nil }
        let floor = floors[location.floor]
        let beacon = floor.beacons[location.beacon]
        return ResolvedBeacon(
            identity: identity,
            level: floor.level,
            position: Point3D(
                x: beacon.position.x, y: beacon.position.y,
                z: floor.elevation + beacon.position.z),
            measuredPower: beacon.measuredPower ?? defaults.measuredPower,
            pathLossExponent: beacon.pathLossExponent ?? defaults.pathLossExponent)
    }

    /// The floor at `level`, if the plan has one.
    public func floor(level: Int) -> Floor? {
        floors.first { $0.level == level }
    }

    /// The zone containing `point` on the floor at `level`, if any.
    public func zone(at point: Point2D, level: Int) -> Zone? {
        floor(level: level)?.zone(containing: point)
    }
}
