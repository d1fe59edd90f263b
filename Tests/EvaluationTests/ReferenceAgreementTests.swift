import Foundation
import Testing

@testable import Evaluation

/// `TrackScore` against the figures of `Scripts/reference/evaluate.py` on committed fixes. The
/// expected values were computed once with the commands quoted above each table (numpy 2.4)
/// and rounded to 4 decimals; the tolerances are those promised: 0.01 m for RMSE, median and
/// P90, 1 percentage point for honesty, and counts exactly.
@Suite("evaluate agrees with evaluate.py")
struct ReferenceAgreementTests {
    typealias Expected = (
        device: String, count: Int, skipped: Int, rmse: Double, median: Double, p90: Double, honesty: Double
    )

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    static let sharedData = root.deletingLastPathComponent().appendingPathComponent("shared/data")
    static var hasSharedData: Bool {
        FileManager.default.fileExists(atPath: sharedData.appendingPathComponent("danis-office/tracks_truth.csv").path)
    }

    // python3 Scripts/reference/evaluate.py Tests/EvaluationTests/Fixtures/office-fixes.csv Docs/Examples/office-truth.csv --json
    static let office: [Expected] = [
        ("rectangular_with_rotation", 83, 1, 3.1421, 2.2836, 4.8216, 0.2289),
        ("straight_01", 58, 1, 2.0532, 1.3862, 3.3258, 0.5862),
        ("straight_04", 24, 1, 1.7480, 1.4400, 2.5081, 0.5000),
        ("*overall*", 165, 3, 2.6254, 1.7549, 4.4190, 0.3939)
    ]

    // python3 Scripts/reference/evaluate.py Tests/EvaluationTests/Fixtures/danis-office-fixes.csv ../shared/data/danis-office/tracks_truth.csv --json
    static let danis: [Expected] = [
        ("rectangular_with_rotation", 83, 1, 3.1150, 2.2848, 5.1373, 0.2530),
        ("rectangular_without_rotation", 83, 1, 3.1915, 2.4125, 4.4697, 0.2289),
        ("straight_01", 58, 1, 1.9441, 1.3561, 3.1524, 0.5862),
        ("straight_02", 54, 1, 2.4918, 2.2331, 3.6458, 0.3148),
        ("straight_03", 46, 1, 2.5371, 1.7899, 4.1608, 0.3696),
        ("straight_04", 24, 1, 1.7857, 1.6084, 2.5283, 0.4583),
        ("straight_05", 148, 1, 2.2829, 1.9821, 3.2847, 0.3378),
        ("zigzagging_with_rotation", 97, 1, 2.3294, 1.6771, 3.9244, 0.4433),
        ("zigzagging_without_rotation", 96, 1, 2.6369, 1.7139, 4.4294, 0.3542),
        ("*overall*", 689, 9, 2.5678, 1.9109, 4.1114, 0.3570)
    ]

    // python3 Scripts/reference/evaluate.py Tests/EvaluationTests/Fixtures/kolakowski-flat-fixes.csv ../shared/data/kolakowski-flat/robot_truth.csv --json
    static let kolakowski: [Expected] = [
        ("", 302, 2, 1.7650, 1.5098, 2.4925, 0.6093),
        ("*overall*", 302, 2, 1.7650, 1.5098, 2.4925, 0.6093)
    ]

    static func check(fixes: String, truth: URL, expected: [Expected]) throws {
        let evaluation = TrackScore(
            fixes: try TrackTable.read(path: fixtures.appendingPathComponent(fixes).path),
            truth: try TrackTable.read(path: truth.path))
        var actual = evaluation.devices.map { ($0.name, $0.metrics) }
        actual.append(("*overall*", evaluation.overall))
        #expect(actual.map(\.0) == expected.map(\.device))
        for ((name, metrics), want) in zip(actual, expected) {
            #expect(metrics.count == want.count, "\(name)")
            #expect(metrics.skipped == want.skipped, "\(name)")
            #expect(abs((metrics.rmse ?? .nan) - want.rmse) < 0.01, "\(name) RMSE")
            #expect(abs((metrics.median ?? .nan) - want.median) < 0.01, "\(name) median")
            #expect(abs((metrics.p90 ?? .nan) - want.p90) < 0.01, "\(name) P90")
            #expect(abs((metrics.honesty ?? .nan) - want.honesty) < 0.01, "\(name) honesty")
            #expect(metrics.floorHitRate == 1, "\(name) floor")
        }
    }

    @Test("the bundled sample (always available)")
    func bundledSample() throws {
        try Self.check(
            fixes: "office-fixes.csv", truth: Self.root.appendingPathComponent("Docs/Examples/office-truth.csv"),
            expected: Self.office)
    }

    @Test(
        "danis-office, 9 tracks (needs ../shared/data)",
        .enabled(if: hasSharedData, "the shared data sets are not beside the repository"))
    func danisOffice() throws {
        try Self.check(
            fixes: "danis-office-fixes.csv",
            truth: Self.sharedData.appendingPathComponent("danis-office/tracks_truth.csv"), expected: Self.danis)
    }

    @Test(
        "kolakowski-flat robot drive (needs ../shared/data)",
        .enabled(if: hasSharedData, "the shared data sets are not beside the repository"))
    func kolakowskiFlat() throws {
        try Self.check(
            fixes: "kolakowski-flat-fixes.csv",
            truth: Self.sharedData.appendingPathComponent("kolakowski-flat/robot_truth.csv"), expected: Self.kolakowski)
    }
}
