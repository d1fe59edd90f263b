import Foundation

/// Where a plan lies on the Earth: the WGS 84 position of the plan's origin and the bearing of
/// its +y axis, so that plan metres can be written as longitude and latitude (GeoJSON, maps).
///
/// The conversion uses the local tangent plane at the origin: the plan point (x, y) is rotated
/// into east and north metres,
///
///     east  =  x cos β + y sin β,    north = −x sin β + y cos β,
///
/// (β the bearing of +y, clockwise from true north; β = 0 means x east, y north), then
///
///     φ = φ₀ + north / M(φ₀),    λ = λ₀ + east / (N(φ₀) cos φ₀),
///
/// with the WGS 84 meridian radius M = a(1 − e²)/(1 − e² sin²φ₀)^{3/2} and prime-vertical
/// radius N = a/√(1 − e² sin²φ₀) (a = 6 378 137 m, f = 1/298.257223563). The error of this
/// first-order mapping grows with the square of the distance d from the origin, about
/// d²·tan φ₀ / R (R ≈ 6.37 × 10⁶ m): under 1 mm at 50 m and about 1 cm at 200 m from the
/// origin at latitude 60°, far below the accuracy of a beacon fix. It is not meant for sites
/// many kilometres across, and not within 0.1° of a pole.
public struct Georeference: Sendable, Hashable, Codable {
    /// Latitude of the plan's origin, degrees north (−89.9…89.9).
    public var latitude: Double
    /// Longitude of the plan's origin, degrees east (−180…180).
    public var longitude: Double
    /// Bearing of the plan's +y axis, degrees clockwise from true north (−360…360).
    public var bearing: Double

    /// Allowed latitudes, degrees (the tangent-plane mapping fails at the poles).
    public static let latitudeRange: ClosedRange<Double> = -89.9...89.9
    /// Allowed longitudes, degrees.
    public static let longitudeRange: ClosedRange<Double> = -180...180
    /// Allowed bearings, degrees.
    public static let bearingRange: ClosedRange<Double> = -360...360

    /// A georeference: the origin's `latitude` and `longitude` in degrees (WGS 84) and the
    /// `bearing` of the plan's +y axis in degrees clockwise from true north.
    public init(latitude: Double, longitude: Double, bearing: Double = 0) {
        self.latitude = latitude
        self.longitude = longitude
        self.bearing = bearing
    }

    static let semiMajorAxis = 6_378_137.0
    static let flattening = 1 / 298.257223563

    /// Metres per radian of latitude (M) and of longitude (N cos φ₀) at the origin.
    var radii: (meridian: Double, parallel: Double) {
        let e2 = Self.flattening * (2 - Self.flattening)
        let phi = latitude * Double.pi / 180
        let w = 1 - e2 * sin(phi) * sin(phi)
        let meridian = Self.semiMajorAxis * (1 - e2) / (w * w.squareRoot())
        let normal = Self.semiMajorAxis / w.squareRoot()
        return (meridian, normal * cos(phi))
    }

    /// The WGS 84 longitude (in −180 ..< 180, wrapped across the antimeridian) and latitude,
    /// degrees, of the plan point (x, y) metres.
    public func coordinate(x: Double, y: Double) -> (longitude: Double, latitude: Double) {
        let beta = bearing * Double.pi / 180
        let east = x * cos(beta) + y * sin(beta)
        let north = -x * sin(beta) + y * cos(beta)
        let (meridian, parallel) = radii
        return (
            Self.wrapped(longitude + east / parallel * 180 / Double.pi),
            latitude + north / meridian * 180 / Double.pi
        )
    }

    /// A longitude in degrees brought into −180 ..< 180 (east of 180° is −179.9…°, across the
    /// antimeridian).
    static func wrapped(_ longitude: Double) -> Double {
        let turned = (longitude + 180).truncatingRemainder(dividingBy: 360)
        return (turned < 0 ? turned + 360 : turned) - 180
    }

    /// The plan point (metres) of a WGS 84 longitude and latitude (degrees): the inverse of
    /// ``coordinate(x:y:)``.
    public func planPoint(longitude lon: Double, latitude lat: Double) -> Point2D {
        let (meridian, parallel) = radii
        let east = Self.wrapped(lon - longitude) * Double.pi / 180 * parallel
        let north = (lat - latitude) * Double.pi / 180 * meridian
        let beta = bearing * Double.pi / 180
        return Point2D(x: east * cos(beta) - north * sin(beta), y: east * sin(beta) + north * cos(beta))
    }
}
