import Foundation
import TestSupport
import Testing

@testable import BeaconModel

@Suite("Polygon geometry")
struct PolygonTests {
    static func polygon(_ points: [(Double, Double)]) -> Polygon {
        Polygon(points.map { Point2D(x: $0.0, y: $0.1) })
    }

    /// 4 × 4 square, counter-clockwise.
    static let square = polygon([(0, 0), (4, 0), (4, 4), (0, 4)])
    /// An L: 4 × 4 square with the 2 × 2 top-right quarter cut away (area 12), counter-clockwise.
    static let lShape = polygon([(0, 0), (4, 0), (4, 2), (2, 2), (2, 4), (0, 4)])
    /// A bow-tie: edges 0 and 2 cross at (2, 2).
    static let bowTie = polygon([(0, 0), (4, 4), (4, 0), (0, 4)])

    @Test("areas by the shoelace formula, signed by orientation")
    func areas() {
        #expect(Self.square.area == 16)
        #expect(Self.square.signedArea == 16)
        #expect(Polygon(Self.square.vertices.reversed()).signedArea == -16)
        #expect(Self.lShape.area == 12)
        // A triangle with a fractional area: base 3, height 5.
        #expect(abs(Self.polygon([(1, 1), (4, 1), (2, 6)]).area - 7.5) < 1e-12)
    }

    @Test("contains: inside, outside, and on the boundary (included)")
    func contains() {
        #expect(Self.square.contains(Point2D(x: 2, y: 2)))
        #expect(Self.square.contains(Point2D(x: 0, y: 2)))  // on an edge
        #expect(Self.square.contains(Point2D(x: 4, y: 4)))  // a vertex
        #expect(!Self.square.contains(Point2D(x: 4.001, y: 2)))
        #expect(!Self.square.contains(Point2D(x: -1, y: -1)))
        #expect(Self.lShape.contains(Point2D(x: 1, y: 3)))
        #expect(Self.lShape.contains(Point2D(x: 3, y: 1)))
        #expect(!Self.lShape.contains(Point2D(x: 3, y: 3)))  // the cut-away quarter
        #expect(Self.lShape.contains(Point2D(x: 2, y: 3)))  // its inner edge
        #expect(!Polygon([Point2D(x: 0, y: 0), Point2D(x: 1, y: 1)]).contains(Point2D(x: 0, y: 0)))
    }

    @Test("distance to the boundary, inside and outside")
    func boundaryDistance() {
        #expect(abs(Self.square.distanceToBoundary(Point2D(x: 1, y: 2)) - 1) < 1e-12)
        #expect(abs(Self.square.distanceToBoundary(Point2D(x: 2, y: 2)) - 2) < 1e-12)
        #expect(abs(Self.square.distanceToBoundary(Point2D(x: 7, y: 8)) - 5) < 1e-12)  // 3-4-5 from (4, 4)
        #expect(Self.square.distanceToBoundary(Point2D(x: 4, y: 1)) == 0)
        // In the L's notch, (3, 3) is 1 m from both inner edges; the first of them, (4,2)-(2,2),
        // gives the nearest point (3, 2).
        let nearest = Self.lShape.nearestBoundaryPoint(to: Point2D(x: 3, y: 3))
        #expect(abs(nearest.distance - 1) < 1e-12)
        #expect(abs(nearest.point.x - 3) < 1e-12 && abs(nearest.point.y - 2) < 1e-12)
        #expect(abs(Self.lShape.distanceToBoundary(Point2D(x: 2.5, y: 2.5)) - 0.5) < 1e-12)
    }

    @Test("a simple polygon has no self-intersection")
    func simple() {
        #expect(!Self.square.isSelfIntersecting)
        #expect(!Self.lShape.isSelfIntersecting)
        #expect(Self.square.selfIntersection() == nil)
    }

    @Test("a bow-tie crosses edges 0 and 2")
    func bowTie() throws {
        #expect(Self.bowTie.isSelfIntersecting)
        let defect = try #require(Self.bowTie.selfIntersection())
        #expect(defect.edge == 0 && defect.otherEdge == 2)
    }

    @Test("a repeated vertex is a zero-length edge")
    func repeatedVertex() throws {
        let defect = try #require(Self.polygon([(0, 0), (4, 0), (4, 0), (4, 4)]).selfIntersection())
        #expect(defect.edge == 1 && defect.otherEdge == 1)
    }

    @Test("a zero-width spike (an edge folding back) is not simple")
    func spike() throws {
        let defect = try #require(Self.polygon([(0, 0), (4, 0), (2, 0), (2, 3)]).selfIntersection())
        #expect(defect.edge == 0 && defect.otherEdge == 1)
        // Three collinear points have zero area: not simple either.
        #expect(Self.polygon([(0, 0), (2, 0), (1, 0)]).isSelfIntersecting)
    }

    @Test("a vertex touching a non-adjacent edge is not simple")
    func touching() {
        // Vertex 3 (2, 0) lies on edge 0.
        #expect(Self.polygon([(0, 0), (4, 0), (4, 4), (2, 0), (0, 4)]).isSelfIntersecting)
    }

    /// The lowest crossing pair by testing every pair of non-adjacent edges: the reference the
    /// sweep must agree with.
    static func bruteForceCrossing(_ polygon: Polygon) -> (Int, Int)? {
        let v = polygon.vertices, n = v.count
        for i in 0..<n {
            for j in (i + 1)..<n where j != i + 1 && !(i == 0 && j == n - 1) {
                if Polygon.segmentsIntersect(v[i], v[(i + 1) % n], v[j], v[(j + 1) % n]) { return (i, j) }
            }
        }
        return nil
    }

    @Test("the sweep finds the same first crossing as testing every pair, on seeded random polygons")
    func sweepMatchesBruteForce() {
        var rng = SeededGenerator(seed: 7)
        var crossing = 0, simple = 0
        for _ in 0..<400 {
            let n = Int.random(in: 4...12, using: &rng)
            // Random radii around the centre: a star-shaped (simple) polygon when the angles
            // are sorted, a tangle when they are not.
            var angles = (0..<n).map { _ in Double.random(in: 0..<(2 * Double.pi), using: &rng) }
            if Bool.random(using: &rng) { angles.sort() }
            let polygon = Polygon(
                angles.map { a in
                    let r = Double.random(in: 1...10, using: &rng)
                    return Point2D(x: r * cos(a), y: r * sin(a))
                })
            let expected = Self.bruteForceCrossing(polygon)
            let found = polygon.selfIntersection()
            #expect(found?.edge == expected?.0 && found?.otherEdge == expected?.1)
            if expected == nil { simple += 1 } else { crossing += 1 }
        }
        // Both kinds occur, so the comparison covers both answers.
        #expect(crossing > 50 && simple > 50)
    }

    @Test("a 10,000-vertex circle is simple; a polygon over the vertex limit is refused by plans")
    func largePolygons() {
        let circle = { (n: Int) in
            Polygon(
                (0..<n).map { i in
                    let a = 2 * Double.pi * Double(i) / Double(n)
                    return Point2D(x: 50 * cos(a), y: 50 * sin(a))
                })
        }
        #expect(!circle(Polygon.maximumVertexCount).isSelfIntersecting)
        let tooMany = circle(Polygon.maximumVertexCount + 1)
        #expect(throws: FloorPlanError.tooManyVertices(path: "floors[0].outline", count: 10_001, limit: 10_000)) {
            try FloorPlan(name: "x", floors: [Floor(level: 0, outline: tooMany)])
        }
    }
}
