import LinearAlgebra

/// One timed position of a track read from a file: a fix (with its uncertainty when the file
/// gives it) or a ground-truth sample. Coordinates in metres in the building frame.
public struct TrackPoint: Sendable, Hashable {
    /// Time, seconds (the file's epoch).
    public var timestamp: Double
    /// Position in the building frame, metres.
    public var x: Double
    /// Position in the building frame, metres.
    public var y: Double
    /// The floor level, when the file has a `floor` column.
    public var floor: Int?
    /// 1-σ horizontal error radius √(var x + var y), metres, when the file has `accuracy`.
    public var accuracy: Double?
    /// The horizontal covariance, m², when the file has the columns `varX`, `varY` and `covXY`.
    public var covariance: PositionCovariance?
    /// A truth row marked `static` (1): the receiver stays at this position until the next row,
    /// however long the gap (a point survey).
    public var isStatic = false
    /// The `zone` column of a fixes file (`indoorpos locate` writes the library's zone decision
    /// there): the zone id, "" for an empty cell (no zone); nil when the file has no such column.
    public var zone: String?

    /// A point: `timestamp` in seconds, `x`, `y` and `accuracy` in metres, `covariance` in m².
    public init(
        timestamp: Double, x: Double, y: Double, floor: Int? = nil, accuracy: Double? = nil,
        covariance: PositionCovariance? = nil
    ) {
        self.timestamp = timestamp
        self.x = x
        self.y = y
        self.floor = floor
        self.accuracy = accuracy
        self.covariance = covariance
    }

    /// The 1-σ error ellipse: from the covariance when known, else the circle of radius
    /// `accuracy` (the isotropic covariance with var x = var y = accuracy²/2 has semi-axes
    /// accuracy/√2; a circle of radius `accuracy` is drawn instead, the radius the honesty
    /// metric compares errors with). Nil when neither is known.
    public var ellipse: ErrorEllipse? {
        if let covariance { return ErrorEllipse(horizontalOf: covariance) }
        if let accuracy { return ErrorEllipse(semiMajor: accuracy, semiMinor: accuracy, orientation: 0) }
        return nil
    }
}
