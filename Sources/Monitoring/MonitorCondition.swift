import BeaconModel

/// What a monitored region is: a beacon identity condition, a circle on a floor, or a zone of
/// the floor plan.
///
/// Beacon conditions are decided from sightings (``BeaconSighting``); circles and zones from
/// tracked positions (``PositionObservation``).
public enum MonitorCondition: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Beacons matching a condition with wildcards (uuid; uuid + major; uuid + major + minor),
    /// as `CLMonitor.BeaconIdentityCondition`.
    case beacon(BeaconCondition)
    /// A circle on one floor, in plan metres.
    case circle(CircleCondition)
    /// A zone of the floor plan by its id; on a plan where several floors have a zone with this
    /// id, the zone of the position's floor counts.
    case zone(String)

    /// Whether the condition is decided from beacon sightings (true) or positions (false).
    public var isBeaconCondition: Bool {
        if case .beacon = self { return true }
        return false
    }

    /// `beacon UUID:major:*`, `circle (12, 4) r 2.5 on level 0`, `zone lobby`.
    public var description: String {
        switch self {
        case .beacon(let condition): return "beacon \(condition)"
        case .circle(let circle):
            return "circle (\(circle.center.x), \(circle.center.y)) r \(circle.radius) on level \(circle.level)"
        case .zone(let id): return "zone \(id)"
        }
    }
}

/// A circle on one floor: the points within `radius` metres of `center` on level `level`.
public struct CircleCondition: Sendable, Hashable, Codable {
    /// Centre in the plan's frame, metres.
    public var center: Point2D
    /// Radius, metres (positive and finite for a valid region).
    public var radius: Double
    /// The floor level.
    public var level: Int

    public init(center: Point2D, radius: Double, level: Int) {
        self.center = center
        self.radius = radius
        self.level = level
    }

    /// Signed depth of `point` in the circle, metres: radius − distance to the centre
    /// (positive inside, negative outside).
    public func depth(of point: Point2D) -> Double { radius - center.distance(to: point) }
}
