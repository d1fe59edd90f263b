/// An interior wall of a floor: a straight segment that weakens a beacon's signal by its
/// attenuation when it stands between the beacon and the phone (the multi-wall model of
/// Motley and Keenan, 1988; COST 231, 1999), and that a tracked phone does not walk through.
/// A door is a gap between segments.
public struct Wall: Sendable, Hashable {
    /// The most walls a floor may have (10,000: a large venue's floor has a few hundred): each
    /// is tested against every beacon heard, every epoch.
    public static let maximumPerFloor = 10_000

    /// One end, metres in the building frame.
    public var from: Point2D
    /// The other end, metres in the building frame.
    public var to: Point2D
    /// The loss of a signal passing through it, dB (positive); nil takes the plan's
    /// ``PlanDefaults/wallAttenuation`` or, when that is left out too, a learned or standard value.
    public var attenuation: Double?

    /// A wall from `from` to `to` (metres), with `attenuation` in dB or nil for the plan's.
    public init(from: Point2D, to: Point2D, attenuation: Double? = nil) {
        self.from = from
        self.to = to
        self.attenuation = attenuation
    }

    /// Whether the segment from `a` to `b` passes through the wall: the two segments cross at
    /// one interior point of each (touching an end, or lying along the wall, is not crossing;
    /// a beacon mounted on the wall is heard on both of its sides).
    @inlinable
    public func separates(_ a: Point2D, _ b: Point2D) -> Bool {
        Wall.crosses(a.x, a.y, b.x, b.y, from.x, from.y, to.x, to.y)
    }

    /// Whether segments (ax, ay)–(bx, by) and (cx, cy)–(dx, dy) cross at one interior point of
    /// each: the ends of each lie strictly on opposite sides of the other's line.
    @inlinable
    public static func crosses(
        _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double,
        _ cx: Double, _ cy: Double, _ dx: Double, _ dy: Double
    ) -> Bool {
        let ex = bx - ax, ey = by - ay
        let fx = dx - cx, fy = dy - cy
        let c1 = ex * (cy - ay) - ey * (cx - ax)
        let c2 = ex * (dy - ay) - ey * (dx - ax)
        guard (c1 > 0 && c2 < 0) || (c1 < 0 && c2 > 0) else { return false }
        let c3 = fx * (ay - cy) - fy * (ax - cx)
        let c4 = fx * (by - cy) - fy * (bx - cx)
        return (c3 > 0 && c4 < 0) || (c3 < 0 && c4 > 0)
    }
}
