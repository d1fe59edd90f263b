import BeaconModel
import Foundation

/// The monitor's regions indexed so that an input touches only the regions it can affect:
/// beacon conditions by identity (exact identities, and wildcard buckets by UUID + major and by
/// UUID), circles and zones in grids per floor, each region's place in the evaluation order, and
/// each region's children.
///
/// A small shape is kept in the 2-m cell of its centre. A larger one is kept in every cell it
/// covers of the finest grid (cells of 2 m, 4 m, 8 m, … ) in which it covers at most
/// ``largeCells`` cells, so the index holds at most that many entries per region whatever the
/// regions' sizes: 10,000 circles of radius 60 m, each in every one of the 3,721 2-m cells it
/// covered, made the index grow to 3.6 GB before.
///
/// A position can change a circle or zone only when that region is not unsatisfied, or when the
/// position is not clearly outside it (signed depth d with −d − w·a < exit margin, see
/// ``Hysteresis/PositionRule``). Regions not unsatisfied are kept in ``live``; the others are
/// found in the grid within the largest exit margin plus the largest accuracy slack.
struct RegionIndex: Sendable {
    /// Side of a grid cell, metres.
    static let cellSize = 2.0
    /// A query that would look at more cells than this scans every shape instead.
    static let maximumCells = 4096
    /// The most cells a large shape is kept in (4 × 4): it goes to the finest grid in which its
    /// bounding box covers no more.
    static let largeCells = 16
    /// The coarsest large-shape grid has cells of ``cellSize`` · 2^``largestScale`` metres
    /// (about 2·10¹⁸ m); a shape too large even for it is checked for every position.
    static let largestScale = 60

    struct MajorKey: Hashable, Sendable {
        var uuid: UUID
        var major: UInt16
    }
    struct Cell: Hashable, Sendable {
        var x: Int
        var y: Int
    }
    /// A grid of large shapes: a floor, and its cell side ``cellSize`` · 2^`scale`.
    struct GridKey: Hashable, Sendable {
        var level: Int
        var scale: Int
    }

    /// A circle or zone as the grid keeps it: enough to rule it out without its entry.
    struct Shape: Sendable {
        enum Geometry: Sendable { case circle(CircleCondition), zone(String) }
        /// The region's place in the evaluation order.
        var rank: Int
        var geometry: Geometry
        var level: Int
        var minX: Double, minY: Double, maxX: Double, maxY: Double
        var exitMargin: Double
        var accuracyWeight: Double
        var maximumAccuracy: Double
    }

    /// Place in the evaluation order by identifier.
    var rank: [String: Int] = [:]
    /// Children of each parent, in evaluation order.
    var children: [String: [String]] = [:]
    var exact: [BeaconIdentity: [String]] = [:]
    var byMajor: [MajorKey: [String]] = [:]
    var byUUID: [UUID: [String]] = [:]
    /// Per level: shapes no wider than ``smallExtent`` by the cell of their centre.
    var grid: [Int: [Cell: [Shape]]] = [:]
    /// Per level and scale: larger shapes (their places in ``positionShapes``) in every cell
    /// they cover.
    var largeGrid: [GridKey: [Cell: [Int32]]] = [:]
    /// Per level: the scales of ``largeGrid`` in use, ascending.
    var largeScales: [Int: [Int]] = [:]
    /// Largest half-width or half-height of a shape kept by its centre, metres.
    static let smallExtent = 4.0
    /// Largest half-width or half-height of any shape in ``grid``, metres.
    var largestSmallExtent = 0.0
    /// Shapes too large for the grid, checked for every position.
    var wide: [Shape] = []
    /// Every circle and zone, in evaluation order (the fallback for positions so inaccurate
    /// that the grid query would be larger than a scan).
    var positionShapes: [Shape] = []
    /// The largest exit margin and accuracy weight of any circle or zone, and the largest
    /// accuracy any of them accepts.
    var largestExitMargin = 0.0
    var largestAccuracyWeight = 0.0
    var largestMaximumAccuracy = 0.0
    /// Circles and zones whose state is not unsatisfied, by place in the evaluation order.
    var live: Set<Int> = []
    /// Zone regions, by place in the evaluation order (ascending): what a position that decides
    /// zones (``PositionObservation/decidesZones``) sets.
    var zoneRanks: [Int] = []
    /// Regions whose beacon evidence has no start yet (armed at the next input).
    var pendingSince: Set<String> = []
    /// Beacon exit deadlines.
    var deadlines = DeadlineQueue()

    /// Indexes region `id`, which takes place `rank` in the evaluation order after every
    /// region indexed so far.
    mutating func append(_ id: String, entry: RegionEntry, rank: Int, rule: Hysteresis, zones: ZoneIndex) {
        self.rank[id] = rank
        if let parent = entry.record.parent { children[parent, default: []].append(id) }
        // Only a beacon condition counts silence (circles and zones never read `since`), so a
        // monitor with many circles does not touch them all at its first input. A top-level
        // beacon region that is unsatisfied has no exit deadline to schedule either: it counts
        // silence from the monitor's first input (``RegionMonitor/startTime``) without being
        // touched, so a monitor copied per phone does not arm every beacon region at each
        // phone's first sample (2,000 beacon regions and 30,000 phones took 49 s).
        if entry.record.condition.isBeaconCondition, entry.beacon.since == nil,
            entry.record.parent != nil || entry.record.state != .unsatisfied
        {
            pendingSince.insert(id)
        }
        switch entry.record.condition {
        case .beacon(let condition):
            if let major = condition.major {
                if let minor = condition.minor {
                    exact[BeaconIdentity(uuid: condition.uuid, major: major, minor: minor), default: []].append(id)
                } else {
                    byMajor[MajorKey(uuid: condition.uuid, major: major), default: []].append(id)
                }
            } else {
                byUUID[condition.uuid, default: []].append(id)
            }
        case .circle(let circle):
            let shape = Shape(
                rank: rank, geometry: .circle(circle), level: circle.level,
                minX: circle.center.x - circle.radius, minY: circle.center.y - circle.radius,
                maxX: circle.center.x + circle.radius, maxY: circle.center.y + circle.radius,
                exitMargin: rule.position.exitMargin, accuracyWeight: rule.position.accuracyWeight,
                maximumAccuracy: rule.position.maximumAccuracy)
            insert(shape, level: circle.level)
        case .zone(let zone):
            zoneRanks.append(rank)
            for (level, polygon) in zones.polygons(of: zone) {
                let xs = polygon.vertices.map(\.x), ys = polygon.vertices.map(\.y)
                let shape = Shape(
                    rank: rank, geometry: .zone(zone), level: level,
                    minX: xs.min() ?? 0, minY: ys.min() ?? 0, maxX: xs.max() ?? 0, maxY: ys.max() ?? 0,
                    exitMargin: rule.position.exitMargin, accuracyWeight: rule.position.accuracyWeight,
                    maximumAccuracy: rule.position.maximumAccuracy)
                insert(shape, level: level)
            }
        }
        if !entry.record.condition.isBeaconCondition, entry.record.state != .unsatisfied { live.insert(rank) }
    }

    private mutating func insert(_ shape: Shape, level: Int) {
        largestExitMargin = max(largestExitMargin, shape.exitMargin)
        largestAccuracyWeight = max(largestAccuracyWeight, shape.accuracyWeight)
        largestMaximumAccuracy = max(largestMaximumAccuracy, shape.maximumAccuracy)
        positionShapes.append(shape)
        let extent = max(shape.maxX - shape.minX, shape.maxY - shape.minY) / 2
        if extent <= Self.smallExtent {
            let x = (shape.minX + shape.maxX) / 2, y = (shape.minY + shape.maxY) / 2
            if let (cell, _) = Self.cells(minX: x, minY: y, maxX: x, maxY: y) {
                largestSmallExtent = max(largestSmallExtent, extent)
                grid[level, default: [:]][cell, default: []].append(shape)
                return
            }
        }
        // The finest grid in which the shape covers at most `largeCells` cells.
        var found: (scale: Int, low: Cell, high: Cell)?
        for scale in 0...Self.largestScale {
            if let (low, high) = Self.cells(
                minX: shape.minX, minY: shape.minY, maxX: shape.maxX, maxY: shape.maxY,
                scale: scale, limit: Self.largeCells)
            {
                found = (scale, low, high)
                break
            }
        }
        guard let (scale, low, high) = found, positionShapes.count <= Int(Int32.max) else {
            wide.append(shape)
            return
        }
        let key = GridKey(level: level, scale: scale)
        if largeGrid[key] == nil {
            largeScales[level, default: []].append(scale)
            largeScales[level]!.sort()
        }
        let place = Int32(positionShapes.count - 1)
        for x in low.x...high.x {
            for y in low.y...high.y { largeGrid[key, default: [:]][Cell(x: x, y: y), default: []].append(place) }
        }
    }

    /// The cells of side ``cellSize`` · 2^`scale` that a box covers, or nil when they are more
    /// than `limit` (or lie more than 10⁹ cells out).
    static func cells(
        minX: Double, minY: Double, maxX: Double, maxY: Double, scale: Int = 0, limit: Int = maximumCells
    ) -> (Cell, Cell)? {
        let size = cellSize * Double(sign: .plus, exponent: scale, significand: 1)
        let lx = (minX / size).rounded(.down), ly = (minY / size).rounded(.down)
        let hx = (maxX / size).rounded(.down), hy = (maxY / size).rounded(.down)
        guard lx.isFinite, ly.isFinite, hx.isFinite, hy.isFinite,
            abs(lx) < 1e9, abs(ly) < 1e9, abs(hx) < 1e9, abs(hy) < 1e9,
            (hx - lx + 1) * (hy - ly + 1) <= Double(limit)
        else { return nil }
        return (Cell(x: Int(lx), y: Int(ly)), Cell(x: Int(hx), y: Int(hy)))
    }

    /// The beacon conditions `identity` matches, in evaluation order.
    func beaconCandidates(of identity: BeaconIdentity) -> [String] {
        let a = exact[identity] ?? [], b = byMajor[MajorKey(uuid: identity.uuid, major: identity.major)] ?? [],
            c = byUUID[identity.uuid] ?? []
        if b.isEmpty && c.isEmpty { return a }
        if a.isEmpty && c.isEmpty { return b }
        if a.isEmpty && b.isEmpty { return c }
        return (a + b + c).sorted { rank[$0]! < rank[$1]! }
    }

    /// The circles and zones a position may change, by place in the evaluation order,
    /// ascending: every live region and every region the position is not clearly outside of.
    func positionCandidates(of observation: PositionObservation, zones: ZoneIndex) -> [Int] {
        var found: [Int] = []
        let accuracy = observation.accuracy
        let p = observation.position
        func consider(_ shape: Shape) {
            guard shape.level == observation.level, accuracy >= 0, accuracy <= shape.maximumAccuracy else { return }
            let depth: Double
            switch shape.geometry {
            case .circle(let circle): depth = circle.depth(of: p)
            case .zone(let zone): depth = zones.depth(of: p, inZone: zone, level: observation.level)
            }
            if depth.isNaN || -depth - shape.accuracyWeight * accuracy >= shape.exitMargin { return }
            found.append(shape.rank)
        }
        let reach = largestExitMargin + largestAccuracyWeight * min(max(accuracy, 0), largestMaximumAccuracy)
        let smallReach = reach + largestSmallExtent
        let scales = largeScales[observation.level] ?? []
        // The cells to look at in each large-shape grid; nil when one of them is too many.
        var largeQueries: [(scale: Int, low: Cell, high: Cell)]? = []
        for scale in scales {
            guard
                let (low, high) = Self.cells(
                    minX: p.x - reach, minY: p.y - reach, maxX: p.x + reach, maxY: p.y + reach, scale: scale)
            else {
                largeQueries = nil
                break
            }
            largeQueries?.append((scale, low, high))
        }
        if let (low, high) = Self.cells(
            minX: p.x - smallReach, minY: p.y - smallReach,
            maxX: p.x + smallReach, maxY: p.y + smallReach),
            let largeQueries
        {
            if let cells = grid[observation.level] {
                for x in low.x...high.x {
                    for y in low.y...high.y {
                        for shape in cells[Cell(x: x, y: y)] ?? [] { consider(shape) }
                    }
                }
            }
            for query in largeQueries {
                guard let cells = largeGrid[GridKey(level: observation.level, scale: query.scale)] else { continue }
                for x in query.low.x...query.high.x {
                    for y in query.low.y...query.high.y {
                        for place in cells[Cell(x: x, y: y)] ?? [] { consider(positionShapes[Int(place)]) }
                    }
                }
            }
            for shape in wide { consider(shape) }
        } else {
            for shape in positionShapes { consider(shape) }
        }
        found.append(contentsOf: live)
        found.sort()
        // A shape in several cells, a zone on several floors, or a live region also near: once.
        var unique: [Int] = []
        unique.reserveCapacity(found.count)
        for rank in found where rank != unique.last { unique.append(rank) }
        return unique
    }
}
