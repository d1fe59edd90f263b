/// One floor of a building: its level, elevation, outline, zones, walls and beacons.
public struct Floor: Sendable, Hashable {
    /// Integer level, unique within the plan (0 = ground floor, negative below).
    public var level: Int
    /// Human-readable name, if any.
    public var name: String?
    /// Height of the floor surface above the building's reference, metres.
    public var elevation: Double
    /// The floor's outline, if known; positions may be constrained to it.
    public var outline: Polygon?
    /// Named areas of the floor.
    public var zones: [Zone]
    /// Beacons placed on the floor (z is height above this floor).
    public var beacons: [Beacon]
    /// Interior walls (a gap between them is a door): they weaken the signals that pass
    /// through them and bound a tracked phone's steps.
    public var walls: [Wall]

    /// A floor: `elevation` in metres above the building reference; the outline, zones, walls
    /// and beacon x, y in metres in the building frame, beacon z in metres above this floor.
    public init(
        level: Int, name: String? = nil, elevation: Double = 0, outline: Polygon? = nil,
        zones: [Zone] = [], beacons: [Beacon] = [], walls: [Wall] = []
    ) {
        self.level = level
        self.name = name
        self.elevation = elevation
        self.outline = outline
        self.zones = zones
        self.beacons = beacons
        self.walls = walls
    }

    /// The first zone whose polygon contains `point` (boundary included), if any.
    public func zone(containing point: Point2D) -> Zone? {
        zones.first { $0.polygon.contains(point) }
    }
}
