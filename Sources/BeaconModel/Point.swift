/// A point or vector in a floor's plane, in metres (x east, y north).
public struct Point2D: Sendable, Hashable, Codable {
    /// East coordinate, metres.
    public var x: Double
    /// North coordinate, metres.
    public var y: Double

    /// A point from its coordinates, metres.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The origin.
    public static let zero = Point2D(x: 0, y: 0)

    /// Euclidean distance to `other`, metres.
    public func distance(to other: Point2D) -> Double {
        ((x - other.x) * (x - other.x) + (y - other.y) * (y - other.y)).squareRoot()
    }

    /// Component-wise sum, metres.
    public static func + (a: Point2D, b: Point2D) -> Point2D { Point2D(x: a.x + b.x, y: a.y + b.y) }
    /// Component-wise difference (the vector from `b` to `a`), metres.
    public static func - (a: Point2D, b: Point2D) -> Point2D { Point2D(x: a.x - b.x, y: a.y - b.y) }
    /// The vector scaled by `s` (dimensionless).
    public static func * (s: Double, p: Point2D) -> Point2D { Point2D(x: s * p.x, y: s * p.y) }
}

/// A point in the building frame, in metres (x east, y north, z up).
public struct Point3D: Sendable, Hashable, Codable {
    /// East coordinate, metres.
    public var x: Double
    /// North coordinate, metres.
    public var y: Double
    /// Up coordinate, metres.
    public var z: Double

    /// A point from its coordinates, metres.
    public init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// The point (`planar.x`, `planar.y`, `z`).
    public init(_ planar: Point2D, z: Double) {
        self.init(x: planar.x, y: planar.y, z: z)
    }

    /// The horizontal part (x, y).
    public var planar: Point2D { Point2D(x: x, y: y) }

    /// Euclidean distance to `other`, metres.
    public func distance(to other: Point3D) -> Double {
        let dx = x - other.x, dy = y - other.y, dz = z - other.z
        return (dx * dx + dy * dy + dz * dz).squareRoot()
    }

    /// Component-wise sum, metres.
    public static func + (a: Point3D, b: Point3D) -> Point3D { Point3D(x: a.x + b.x, y: a.y + b.y, z: a.z + b.z) }
    /// Component-wise difference (the vector from `b` to `a`), metres.
    public static func - (a: Point3D, b: Point3D) -> Point3D { Point3D(x: a.x - b.x, y: a.y - b.y, z: a.z - b.z) }
}
