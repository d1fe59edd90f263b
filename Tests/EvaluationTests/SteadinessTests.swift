import Foundation
import Testing

@testable import Evaluation

/// ``Steadiness``: known tracks, and agreement with `Scripts/Research/steadiness.py` on the committed
/// fixes (figures computed once with the commands quoted, rounded to 4 decimals; counts exact).
@Suite("steadiness: path ratio, steps, dot speed while the truth stands still")
struct SteadinessTests {
    typealias Expected = (
        steps: Int, pathRatio: Double, medianStep: Double, medianTrueStep: Double,
        stillSpeed: Double, stillSteps: Int
    )

    static func score(fixes: [TrackPoint], truth: [TrackPoint]) -> Steadiness {
        TrackScore(
            fixes: TrackTable(tracks: ["": fixes], hasDevices: false, hasFloor: false, hasAccuracy: false),
            truth: TrackTable(tracks: ["": truth], hasDevices: false, hasFloor: false, hasAccuracy: false)
        ).steadiness
    }

    @Test("a dot that zig-zags ±0.5 m about a truth walking 1 m/s, then about a truth standing still")
    func knownTrack() {
        // Truth every second (the scorer skips fixes inside truth gaps over 5 s): 0…10 s walking
        // along x at 1 m/s, 10…20 s standing at x = 10.
        let truth = (0...20).map { t in TrackPoint(timestamp: Double(t), x: Double(min(t, 10)), y: 0) }
        // Fixes every second, y alternating +0.5 / −0.5.
        let fixes = (0...20).map { t in
            TrackPoint(timestamp: Double(t), x: Double(min(t, 10)), y: t % 2 == 0 ? 0.5 : -0.5)
        }
        let s = Self.score(fixes: fixes, truth: truth)
        #expect(s.steps == 20)
        // Walking steps: √(1² + 1²) each; standing steps: 1 m each (the zig-zag alone).
        let walking = 2.0.squareRoot()
        #expect(abs((s.pathRatio ?? .nan) - (10 * walking + 10) / 10) < 1e-12)
        #expect(abs((s.medianStep ?? .nan) - (1 + walking) / 2) < 1e-12)
        #expect(abs((s.medianTrueStep ?? .nan) - 0.5) < 1e-12)
        #expect(s.stillSteps == 10)
        #expect(abs((s.stillSpeed ?? .nan) - 1) < 1e-12)
    }

    @Test("steps do not span a gap longer than 5 s, nor a fix outside the truth")
    func gaps() {
        let truth = (0...30).map { TrackPoint(timestamp: Double($0), x: Double($0), y: 0) }
        let fixes = [0.0, 1, 2, 9, 10, 40].map { TrackPoint(timestamp: $0, x: $0, y: 0) }
        let s = Self.score(fixes: fixes, truth: truth)
        // 0→1, 1→2, 9→10; 2→9 is 7 s apart, 10→40 leaves the truth.
        #expect(s.steps == 3)
        #expect(s.pathRatio == 1)
        #expect(s.stillSpeed == nil && s.stillSteps == 0)
    }

    // python3 Scripts/Research/steadiness.py Tests/EvaluationTests/Fixtures/office-fixes.csv Docs/Examples/office-truth.csv --json
    static let office: Expected = (162, 3.4887, 1.1261, 0.3751, 1.4013, 10)
    // python3 Scripts/Research/steadiness.py Tests/EvaluationTests/Fixtures/danis-office-fixes.csv ../shared/data/danis-office/tracks_truth.csv --json
    static let danis: Expected = (680, 4.5920, 1.2479, 0.3274, 1.3391, 48)
    // python3 Scripts/Research/steadiness.py Tests/EvaluationTests/Fixtures/kolakowski-flat-fixes.csv ../shared/data/kolakowski-flat/robot_truth.csv --json
    static let kolakowski: Expected = (300, 5.0237, 0.6658, 0.1283, 0.6543, 96)

    static func check(fixes: String, truth: URL, expected: Expected) throws {
        let s = TrackScore(
            fixes: try TrackTable.read(path: ReferenceAgreementTests.fixtures.appendingPathComponent(fixes).path),
            truth: try TrackTable.read(path: truth.path)
        ).steadiness
        #expect(s.steps == expected.steps)
        #expect(s.stillSteps == expected.stillSteps)
        for (actual, want, name) in [
            (s.pathRatio, expected.pathRatio, "path ratio"), (s.medianStep, expected.medianStep, "median step"),
            (s.medianTrueStep, expected.medianTrueStep, "median true step"),
            (s.stillSpeed, expected.stillSpeed, "still speed")
        ] {
            #expect(abs((actual ?? .nan) - want) < 1e-3, "\(name): \(String(describing: actual)) vs \(want)")
        }
    }

    @Test("the bundled sample agrees with steadiness.py")
    func bundledSample() throws {
        try Self.check(
            fixes: "office-fixes.csv",
            truth: ReferenceAgreementTests.root.appendingPathComponent("Docs/Examples/office-truth.csv"),
            expected: Self.office)
    }

    @Test(
        "danis-office and kolakowski-flat agree with steadiness.py (needs ../shared/data)",
        .enabled(if: ReferenceAgreementTests.hasSharedData, "the shared data sets are not beside the repository"))
    func sharedSets() throws {
        let data = ReferenceAgreementTests.sharedData
        try Self.check(
            fixes: "danis-office-fixes.csv", truth: data.appendingPathComponent("danis-office/tracks_truth.csv"),
            expected: Self.danis)
        try Self.check(
            fixes: "kolakowski-flat-fixes.csv", truth: data.appendingPathComponent("kolakowski-flat/robot_truth.csv"),
            expected: Self.kolakowski)
    }
}
