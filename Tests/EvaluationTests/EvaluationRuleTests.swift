import Foundation
import TestSupport
import Testing

@testable import Evaluation

/// The scoring rules on small hand-made tracks whose answers are known exactly.
@Suite("evaluation rules")
struct EvaluationRuleTests {
    static func table(_ csv: String) throws -> TrackTable { try TrackTable.read(text: csv) }

    @Test("truth is interpolated linearly in time; the error is the horizontal distance")
    func interpolation() throws {
        let truth = try Self.table("timestamp,x,y,floor\n0,0,0,0\n2,4,0,0\n4,4,4,1\n")
        let fixes = try Self.table("timestamp,x,y,floor,accuracy\n1,2,3,0,2.5\n3,4,2,1,0.1\n")
        let e = TrackScore(fixes: fixes, truth: truth)
        #expect(e.overall.count == 2)
        #expect(e.overall.errors == [0, 3])  // (2,3) vs (2,0); (4,2) vs (4,2)
        #expect(e.overall.honesty == 0.5)  // 3 > 2.5, 0 <= 0.1
        // At t = 3 the nearest truth samples are t = 2 (floor 0) and t = 4 (floor 1): a tie,
        // the earlier wins, so the fix on floor 1 misses.
        #expect(e.overall.floorHitRate == 0.5)
        #expect(abs(e.overall.rmse! - (9.0 / 2).squareRoot()) < 1e-12)
        #expect(e.overall.median == 1.5)
        #expect(abs(e.overall.p90! - 2.7) < 1e-12)  // linear between ranks: 0 + 0.9·3
    }

    @Test("fixes outside the span, inside a long gap, or of unknown devices are skipped and counted")
    func skipping() throws {
        let truth = try Self.table("timestamp,device,x,y\n0,a,0,0\n1,a,1,0\n10,a,10,0\n11,a,11,0\n0,b,0,0\n1,b,0,0\n")
        let fixes = try Self.table(
            """
            timestamp,device,x,y
            -1,a,0,0
            0.5,a,0.5,0
            5,a,5,0
            10,a,10,0
            12,a,12,0
            0.5,c,0,0
            0.5,b,0,1

            """)
        let e = TrackScore(fixes: fixes, truth: truth, maxGap: 5)
        #expect(e.devices.map(\.name) == ["a", "b", "c"])
        #expect(e.devices[0].metrics.count == 2)  // 0.5 and 10 (exact sample time at a gap's end)
        #expect(e.devices[0].metrics.skipped == 3)  // -1 (before), 5 (9-s gap), 12 (after)
        #expect(e.devices[1].metrics.errors == [1])
        #expect(e.devices[2].metrics.count == 0 && e.devices[2].metrics.skipped == 1)
        #expect(e.devices[2].metrics.rmse == nil)
        #expect(e.overall.count == 3 && e.overall.skipped == 4)
        #expect(e.overall.honesty == nil && e.overall.floorHitRate == nil)
    }

    @Test("a truth without devices applies to every device; one truth row covers only its instant")
    func sharedAndSingleRowTruth() throws {
        let fixes = try Self.table("timestamp,device,x,y\n5,a,3,4\n5,b,0,0\n6,b,0,0\n")
        let single = try Self.table("timestamp,x,y\n5,0,0\n")
        let e = TrackScore(fixes: fixes, truth: single)
        #expect(e.devices.map { $0.metrics.count } == [1, 1])
        #expect(e.overall.errors == [0, 5])
        #expect(e.overall.skipped == 1)
    }

    @Test("equal truth timestamps: the last sample at or before the time counts, as numpy.interp")
    func duplicateTimestamps() throws {
        let truth = try Self.table("timestamp,x,y\n0,0,0\n1,5,0\n1,7,0\n2,9,0\n")
        let fixes = try Self.table("timestamp,x,y\n1,7,0\n1.5,8,0\n")
        let e = TrackScore(fixes: fixes, truth: truth)
        #expect(e.overall.errors == [0, 0])
    }

    @Test("a seeded noisy track: RMSE and quantiles agree with the noise that was added")
    func seededNoise() throws {
        var generator = SeededGenerator(seed: 12)
        var truthRows = ["timestamp,x,y"], fixRows = ["timestamp,x,y,accuracy"]
        let sigma = 1.0  // per axis; the error is Rayleigh with scale σ
        for i in 0...4000 {
            let t = Double(i) * 0.5
            truthRows.append("\(t),\(cos(t / 50) * 10),\(sin(t / 50) * 10)")
            guard i % 2 == 1 else { continue }
            // A fix halfway between truth samples, off by Gaussian noise.
            let tf = t - 0.25
            let (dx, dy) = (generator.gaussian(sigma: sigma), generator.gaussian(sigma: sigma))
            let (x0, y0) = (cos((t - 0.5) / 50) * 10, sin((t - 0.5) / 50) * 10)
            let (x1, y1) = (cos(t / 50) * 10, sin(t / 50) * 10)
            fixRows.append("\(tf),\((x0 + x1) / 2 + dx),\((y0 + y1) / 2 + dy),\(sigma * 2.0.squareRoot())")
        }
        let e = TrackScore(
            fixes: try Self.table(fixRows.joined(separator: "\n")),
            truth: try Self.table(truthRows.joined(separator: "\n")))
        let m = e.overall
        #expect(m.count == 2000)
        // Rayleigh(σ): RMSE √2σ, median σ√(2 ln 2), P90 σ√(2 ln 10); 2000 samples give about 2 % spread.
        #expect(abs(m.rmse! - 2.0.squareRoot()) < 0.05)
        #expect(abs(m.median! - (2 * log(2.0)).squareRoot()) < 0.06)
        #expect(abs(m.p90! - (2 * log(10.0)).squareRoot()) < 0.08)
        // accuracy = √2σ is the RMS radius: P(r ≤ √2σ) = 1 − e⁻¹ ≈ 0.632.
        #expect(abs(m.honesty! - (1 - exp(-1.0))) < 0.03)
    }
}
