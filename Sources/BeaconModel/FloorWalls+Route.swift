/// The shortest way from one point to another that passes walls only through doors: what a
/// report needs when its step from the one before it crosses more than the one wall that
/// ``FloorWalls/door(from:to:reach:)`` leads round (a track that restarted two rooms away).
extension FloorWalls {
    /// The most walls for which ``waypoint(from:to:reach:)`` searches a way: its cost grows as
    /// the cube of the walls (measured on grids of rooms with a door in every wall: 52 walls,
    /// 0.1–1.1 ms a search; 228 walls, 4–33 ms; the longest where no way exists), and it may run
    /// for every step of a track; a floor with more walls is left to ``door(from:to:reach:)`` and
    /// the stop at the wall.
    public static let largestRoutedFloor = 64

    /// Where a step from `a` to `b` that crosses a wall passes first: the door beside the first
    /// wall it crosses (``door(from:to:reach:)``), or where that does not lead round, the first
    /// door of the shortest way there (``waypoint(from:to:reach:)``). Nil when the step crosses
    /// no wall or no way leads there.
    public func firstDoor(from a: Point2D, to b: Point2D, reach: Double) -> Point2D? {
        door(from: a, to: b, reach: reach) ?? waypoint(from: a, to: b, reach: reach)
    }

    /// The first point on the shortest way from `a` to `b` through the floor's doors: the way's
    /// corners are the walls' ends moved `reach` metres further along their lines (into the gap
    /// beside them; ends that lie on another wall are no door), and each of its legs crosses no
    /// wall. Nil when the straight step crosses no wall, when no such way exists (`b` in a closed
    /// room), or when the floor has more than ``largestRoutedFloor`` walls.
    ///
    /// A* search (Hart, Nilsson and Raphael, 1968; the straight distance to `b` as the bound)
    /// over the visibility graph of the door points (Lozano-Pérez and Wesley, 1979), each edge
    /// tested against every wall only when it would shorten a way. Cost: O(walls³) at
    /// worst; it allocates its node lists, and is meant for the rare step that crosses a wall.
    public func waypoint(from a: Point2D, to b: Point2D, reach: Double) -> Point2D? {
        guard !isEmpty, count <= Self.largestRoutedFloor, firstCrossing(from: a, to: b) != nil else { return nil }
        // Nodes: a (0), b (1), then the door points.
        var nodes = [a, b]
        nodes.reserveCapacity(2 + 2 * count)
        for i in 0..<count {
            guard let (first, second) = doorPoints(ofWall: i, reach: reach) else { continue }
            if !touchesWall(first) { nodes.append(first) }
            if !touchesWall(second) { nodes.append(second) }
        }
        var way = [Double](repeating: .infinity, count: nodes.count)
        var previous = [Int](repeating: -1, count: nodes.count)
        var done = [Bool](repeating: false, count: nodes.count)
        way[0] = 0
        // A*: the node whose way so far plus its straight distance to b (a bound that never
        // overestimates) is least is settled next.
        var rest = [Double](repeating: 0, count: nodes.count)
        for k in nodes.indices { rest[k] = nodes[k].distance(to: b) }
        while true {
            // A linear scan: the graph is small and dense.
            var next = -1
            for k in nodes.indices where !done[k] && way[k].isFinite {
                if next < 0 || way[k] + rest[k] < way[next] + rest[next] { next = k }
            }
            guard next >= 0 else { return nil }
            if next == 1 { break }
            done[next] = true
            for k in nodes.indices where !done[k] {
                let length = way[next] + nodes[next].distance(to: nodes[k])
                guard length < way[k], firstCrossing(from: nodes[next], to: nodes[k]) == nil else { continue }
                way[k] = length
                previous[k] = next
            }
        }
        // Back from b to the node after a.
        var k = 1
        while previous[k] != 0 { k = previous[k] }
        return nodes[k]
    }
}
