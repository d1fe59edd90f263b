import Foundation
import TestSupport
import Testing

@testable import Evaluation

@Suite("Static truth: survey points held still, whatever the gap")
struct StaticTruthTests {
    static func table(_ text: String) throws -> TrackTable { try TrackTable.read(text: text) }

    @Test(
        "two rows per point, 120 s apart: every fix during a point is scored against it; the walk between points is not"
    )
    func twoRowsPerPoint() throws {
        let truth = try Self.table("timestamp,x,y\n0,1,1\n120,1,1\n130,5,1\n250,5,1\n")
        let fixes = try Self.table("timestamp,x,y\n10,1.5,1\n60,1,2\n119,1,1\n125,3,1\n200,5,4\n")
        let e = TrackScore(fixes: fixes, truth: truth, maxGap: 5)
        #expect(e.overall.count == 4)
        #expect(e.overall.skipped == 1)  // 125 s: between two points, 10 s apart
        #expect(e.overall.errors.sorted() == [0, 0.5, 1, 3])
        #expect(e.skippedInGaps == 1)
    }

    @Test("one row per point with static = 1: the point holds (no interpolation) until the next row")
    func staticColumn() throws {
        let truth = try Self.table("timestamp,x,y,static\n0,1,1,1\n100,5,1,1\n200,9,1,0\n")
        let fixes = try Self.table("timestamp,x,y\n50,1,1\n150,5,1\n199,9,1\n")
        let e = TrackScore(fixes: fixes, truth: truth, maxGap: 5)
        #expect(e.overall.count == 3)
        #expect(e.overall.errors.sorted() == [0, 0, 4])  // held at (5, 1) until 200 s
        #expect(throws: EvaluationError.self) { try Self.table("timestamp,x,y,static\n0,1,1,2\n") }
    }

    @Test("a walking truth with a long gap still skips the gap")
    func walkingGap() throws {
        let truth = try Self.table("timestamp,x,y\n0,0,0\n1,1,0\n60,30,0\n")
        let fixes = try Self.table("timestamp,x,y\n30,15,0\n")
        let e = TrackScore(fixes: fixes, truth: truth, maxGap: 5)
        #expect(e.overall.count == 0 && e.skippedInGaps == 1)
    }
}
