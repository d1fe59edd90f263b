/// A floor's walls as the pipeline uses them on every sample: flat arrays of segment ends and
/// losses, with the two questions asked of them, the multi-wall loss between a beacon and the
/// phone, and the first wall a step meets.
///
/// The multi-wall model (Motley and Keenan, 1988; COST 231, 1999) adds to the log-distance
/// path loss the loss of each wall the direct path crosses:
///
///     RSSI = P₀ − 10 n log₁₀ d − Σ_{walls crossed} L_w
///
/// Cost: O(walls) per question, nothing allocated.
public struct FloorWalls: Sendable, Hashable, Codable {
    /// x₁, y₁, x₂, y₂ of each wall, metres.
    private var ends: [Double]
    /// Each wall's loss, dB.
    public private(set) var losses: [Double]

    /// How far beyond the end of a wall the pipeline puts a step that would cross it, metres:
    /// into the door beside it (``door(from:to:reach:)``). 0.5 m is inside the narrowest usual
    /// door (0.81 m clear for an accessible one, ADA Standards 2010, §404.2.3).
    public static let doorReach = 0.5

    /// No walls.
    public static let none = FloorWalls(ends: [], losses: [])

    private init(ends: [Double], losses: [Double]) {
        self.ends = ends
        self.losses = losses
    }

    /// `walls`, each with its own attenuation or, when it has none, `attenuation`
    /// (dB: the plan's default, a learned value or ``PlanDefaults/standardWallAttenuation``).
    public init(_ walls: [Wall], attenuation: Double) {
        var ends: [Double] = []
        ends.reserveCapacity(4 * walls.count)
        for wall in walls { ends += [wall.from.x, wall.from.y, wall.to.x, wall.to.y] }
        self.init(ends: ends, losses: walls.map { $0.attenuation ?? attenuation })
    }

    /// Whether there are no walls.
    @inlinable public var isEmpty: Bool { losses.isEmpty }

    /// The number of walls.
    @inlinable public var count: Int { losses.count }

    /// Whether wall `i` stands on the straight path from (ax, ay) to (bx, by) (see
    /// ``Wall/separates(_:_:)`` for what counts as crossing).
    @inline(__always)
    private func crosses(_ i: Int, _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) -> Bool {
        let j = 4 * i
        return Wall.crosses(ax, ay, bx, by, ends[j], ends[j + 1], ends[j + 2], ends[j + 3])
    }

    /// The summed loss of the walls the straight path from (ax, ay) to (bx, by) crosses, dB
    /// (0 when none does).
    public func loss(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) -> Double {
        var total = 0.0
        for i in losses.indices where crosses(i, ax, ay, bx, by) { total += losses[i] }
        return total
    }

    /// How many walls the straight path from (ax, ay) to (bx, by) crosses.
    public func crossings(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) -> Int {
        var count = 0
        for i in losses.indices where crosses(i, ax, ay, bx, by) { count += 1 }
        return count
    }

    /// Where a step from `a` to `b` first meets a wall: the fraction t ∈ (0, 1) of the step at
    /// the crossing, and the wall's unit normal pointing back to `a`'s side; nil when the step
    /// crosses no wall.
    public func firstCrossing(from a: Point2D, to b: Point2D) -> (t: Double, normal: Point2D)? {
        guard let hit = firstCrossedWall(from: a, to: b) else { return nil }
        let j = 4 * hit.wall
        let cx = ends[j], cy = ends[j + 1]
        let fx = ends[j + 2] - cx, fy = ends[j + 3] - cy
        let length = (fx * fx + fy * fy).squareRoot()
        var normal = Point2D(x: -fy / length, y: fx / length)
        // Towards a's side of the wall's line.
        if normal.x * (a.x - cx) + normal.y * (a.y - cy) < 0 { normal = Point2D(x: -normal.x, y: -normal.y) }
        return (hit.t, normal)
    }

    /// `b` held on `a`'s side of every wall: a step from `a` that would cross a wall stops
    /// `margin` metres short of it (along its normal), repeatedly until no wall is crossed (at
    /// most ``count`` times; `a` itself if the walls still cannot be cleared). A gap between
    /// walls (a door) lets a step through.
    public func stop(_ a: Point2D, _ b: Point2D, margin: Double) -> Point2D {
        guard !isEmpty else { return b }
        var target = b
        for _ in 0...count {
            guard let hit = firstCrossing(from: a, to: target) else { return target }
            let at = Point2D(x: a.x + hit.t * (target.x - a.x), y: a.y + hit.t * (target.y - a.y))
            // Slide along the wall: keep the step's part parallel to it, stop short across it.
            let along = Point2D(x: -hit.normal.y, y: hit.normal.x)
            let rest = Point2D(x: target.x - at.x, y: target.y - at.y)
            let slide = along.x * rest.x + along.y * rest.y
            target = Point2D(
                x: at.x + margin * hit.normal.x + slide * along.x,
                y: at.y + margin * hit.normal.y + slide * along.y)
        }
        return firstCrossing(from: a, to: target) == nil ? target : a
    }

    /// A point in a door beside the first wall the step from `a` to `b` crosses, from which
    /// neither `a` nor `b` is behind a wall: either end of that wall moved `reach` metres further
    /// along its line (into the gap beside it, where there is one), whichever makes the shorter
    /// way a → door → b. Nil when the step crosses no wall, or when neither end leads to `b`
    /// without crossing another wall or lies on one (a closed wall run, or a step through two
    /// rooms).
    ///
    /// Cost: O(walls).
    public func door(from a: Point2D, to b: Point2D, reach: Double) -> Point2D? {
        guard let wall = firstCrossedWall(from: a, to: b)?.wall, let ends = doorPoints(ofWall: wall, reach: reach)
        else { return nil }
        var best: (way: Double, point: Point2D)?
        func consider(_ p: Point2D) {
            guard !touchesWall(p), firstCrossing(from: a, to: p) == nil, firstCrossing(from: p, to: b) == nil
            else { return }
            let way = a.distance(to: p) + p.distance(to: b)
            if best == nil || way < best!.way { best = (way, p) }
        }
        consider(ends.0)
        consider(ends.1)
        return best?.point
    }

    /// Whether `p` lies on a wall, to within a millimetre (a point beyond a wall's end that is on
    /// the next wall of the run is not in a door).
    func touchesWall(_ p: Point2D) -> Bool {
        losses.indices.contains { i in
            let j = 4 * i
            let a = Point2D(x: ends[j], y: ends[j + 1]), b = Point2D(x: ends[j + 2], y: ends[j + 3])
            return Polygon.segmentDistance(p, a, b) < 1e-3
        }
    }

    /// Wall `i`'s ends moved `reach` metres further along its line: the first backwards, the
    /// second forwards (into the gap beside each, where there is one); nil for a wall of no length.
    func doorPoints(ofWall i: Int, reach: Double) -> (Point2D, Point2D)? {
        let j = 4 * i
        let fx = ends[j + 2] - ends[j], fy = ends[j + 3] - ends[j + 1]
        let length = (fx * fx + fy * fy).squareRoot()
        guard length > 0 else { return nil }
        let ux = fx / length, uy = fy / length
        return (
            Point2D(x: ends[j] - reach * ux, y: ends[j + 1] - reach * uy),
            Point2D(x: ends[j + 2] + reach * ux, y: ends[j + 3] + reach * uy)
        )
    }

    /// The first wall the step from `a` to `b` crosses (nearest `a`) and the fraction t ∈ (0, 1)
    /// of the step at the crossing, if any.
    private func firstCrossedWall(from a: Point2D, to b: Point2D) -> (wall: Int, t: Double)? {
        var first: (wall: Int, t: Double)?
        let ex = b.x - a.x, ey = b.y - a.y
        for i in losses.indices where crosses(i, a.x, a.y, b.x, b.y) {
            let j = 4 * i
            let fx = ends[j + 2] - ends[j], fy = ends[j + 3] - ends[j + 1]
            let denominator = ex * fy - ey * fx
            guard denominator != 0 else { continue }
            let t = ((ends[j] - a.x) * fy - (ends[j + 1] - a.y) * fx) / denominator
            if first == nil || t < first!.t { first = (i, t) }
        }
        return first
    }
}
