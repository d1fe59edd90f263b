import BeaconModel
import Foundation

/// The monitor's regions indexed so that an input touches only the regions it can affect:
/// beacon conditions by identity (exact identities, and wildcard buckets by UUID + major and by
/// UUID), circles and zones in a uniform grid per floor, each region's place in the evaluation
/// order, and each region's children.
///
/// A position can change a circle or zone only when that region is not unsatisfied, or when the
/// position is not clearly outside it (signed depth d with −d − w·a < exit margin, see
/// ``Hysteresis/PositionRule``). Regions not unsatisfied are kept in ``live``; the others are
/// found in the grid within the largest exit margin plus the largest accuracy slack.
struct RegionIndex: Sendable {
    /// Side of a grid cell, metres.
    static let cellSize = 2.0
    /// A region whose bounding box spans more cells than this is checked for every position.
    static let maximumCells = 4096

    struct MajorKey: Hashable, Sendable { var uuid: UUID; var major: UInt16 }
    struct Cell: Hashable, Sendable { var x: Int; var y: Int }

    /// A circle or zone as the grid keeps it: enough to rule it out without its entry.
    struct Shape: Sendable {
        enum Geometry: Sendable { case circle(CircleCondition), zone(String) }
        var id: String
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
    /// Per level: shapes by cell.
    var grid: [Int: [Cell: [Shape]]] = [:]
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
    /// Circles and zones whose state is not unsatisfied.
    var live: Set<String> = []
    /// Regions whose beacon evidence has no start yet (armed at the next input).
    var pendingSince: Set<String> = []
    /// Beacon exit deadlines.
    var deadlines = DeadlineQueue()

    /// Indexes region `id`, which takes place `rank` in the evaluation order after every
    /// region indexed so far.
    mutating func append(_ id: String, entry: RegionEntry, rank: Int, rule: Hysteresis, zones: ZoneIndex) {
        self.rank[id] = rank
        if let parent = entry.record.parent { children[parent, default: []].append(id) }
        if entry.beacon.since == nil { pendingSince.insert(id) }
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
            let shape = Shape(id: id, geometry: .circle(circle), level: circle.level,
                              minX: circle.center.x - circle.radius, minY: circle.center.y - circle.radius,
                              maxX: circle.center.x + circle.radius, maxY: circle.center.y + circle.radius,
                              exitMargin: rule.position.exitMargin, accuracyWeight: rule.position.accuracyWeight,
                              maximumAccuracy: rule.position.maximumAccuracy)
            insert(shape, level: circle.level)
        case .zone(let zone):
            for (level, polygon) in zones.polygons(of: zone) {
                let xs = polygon.vertices.map(\.x), ys = polygon.vertices.map(\.y)
                let shape = Shape(id: id, geometry: .zone(zone), level: level,
                                  minX: xs.min() ?? 0, minY: ys.min() ?? 0, maxX: xs.max() ?? 0, maxY: ys.max() ?? 0,
                                  exitMargin: rule.position.exitMargin, accuracyWeight: rule.position.accuracyWeight,
                                  maximumAccuracy: rule.position.maximumAccuracy)
                insert(shape, level: level)
            }
        }
        if !entry.record.condition.isBeaconCondition, entry.record.state != .unsatisfied { live.insert(id) }
    }

    private mutating func insert(_ shape: Shape, level: Int) {
        largestExitMargin = max(largestExitMargin, shape.exitMargin)
        largestAccuracyWeight = max(largestAccuracyWeight, shape.accuracyWeight)
        largestMaximumAccuracy = max(largestMaximumAccuracy, shape.maximumAccuracy)
        positionShapes.append(shape)
        guard let (low, high) = Self.cells(minX: shape.minX, minY: shape.minY, maxX: shape.maxX, maxY: shape.maxY) else {
            wide.append(shape)
            return
        }
        for x in low.x...high.x {
            for y in low.y...high.y { grid[level, default: [:]][Cell(x: x, y: y), default: []].append(shape) }
        }
    }

    /// The cells a box covers, or nil when it covers more than ``maximumCells``.
    static func cells(minX: Double, minY: Double, maxX: Double, maxY: Double) -> (Cell, Cell)? {
        let lx = (minX / cellSize).rounded(.down), ly = (minY / cellSize).rounded(.down)
        let hx = (maxX / cellSize).rounded(.down), hy = (maxY / cellSize).rounded(.down)
        guard lx.isFinite, ly.isFinite, hx.isFinite, hy.isFinite,
              abs(lx) < 1e9, abs(ly) < 1e9, abs(hx) < 1e9, abs(hy) < 1e9,
              (hx - lx + 1) * (hy - ly + 1) <= Double(maximumCells) else { return nil }
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

    /// The circles and zones a position may change, in evaluation order: every live region and
    /// every region the position is not clearly outside of.
    func positionCandidates(of observation: PositionObservation, zones: ZoneIndex) -> [String] {
        var found: [String] = []
        let accuracy = observation.accuracy
        func consider(_ shape: Shape) {
            guard shape.level == observation.level, accuracy >= 0, accuracy <= shape.maximumAccuracy,
                  !live.contains(shape.id) else { return }
            let depth: Double
            switch shape.geometry {
            case .circle(let circle): depth = circle.depth(of: observation.position)
            case .zone(let zone): depth = zones.depth(of: observation.position, inZone: zone, level: observation.level)
            }
            if depth.isNaN || -depth - shape.accuracyWeight * accuracy >= shape.exitMargin { return }
            found.append(shape.id)
        }
        let reach = largestExitMargin + largestAccuracyWeight * min(max(accuracy, 0), largestMaximumAccuracy)
        let p = observation.position
        if let (low, high) = Self.cells(minX: p.x - reach, minY: p.y - reach, maxX: p.x + reach, maxY: p.y + reach) {
            if let cells = grid[observation.level] {
                for x in low.x...high.x {
                    for y in low.y...high.y {
                        guard let shapes = cells[Cell(x: x, y: y)] else { continue }
                        for shape in shapes {
                            // Visit a shape only in the first cell where it meets the query box.
                            guard let (first, _) = Self.cells(minX: max(shape.minX, p.x - reach), minY: max(shape.minY, p.y - reach),
                                                              maxX: max(shape.minX, p.x - reach), maxY: max(shape.minY, p.y - reach)),
                                  first.x == x, first.y == y else { continue }
                            consider(shape)
                        }
                    }
                }
            }
            for shape in wide { consider(shape) }
        } else {
            for shape in positionShapes { consider(shape) }
        }
        // A zone on several floors is indexed once per floor: keep one.
        found.append(contentsOf: live)
        return Array(Set(found)).sorted { rank[$0]! < rank[$1]! }
    }
}
