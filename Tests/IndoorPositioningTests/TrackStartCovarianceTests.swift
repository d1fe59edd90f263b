import LinearAlgebra
import Testing
import Tracking
import Trilateration

@testable import IndoorPositioning

/// The covariance a new track starts from: the fix's, without the centroid prior's information
/// and scaled by the fix's a-posteriori variance factor.
@Suite("A track starts with the covariance its first fix's readings support")
struct TrackStartCovarianceTests {
    /// A fix with information J = diag(jx, jy) + prior w I, and χ² over `dof` degrees of freedom.
    static func fix(jx: Double, jy: Double, prior w: Double, chiSquare: Double = 0, dof: Int = 0) -> Fix {
        var fix = Fix()
        fix.position = Point3D(x: 3, y: 4, z: 1.2)
        fix.covariance = PositionCovariance(xx: 1 / (jx + w), xy: 0, yy: 1 / (jy + w))
        fix.centroidPriorWeight = w
        fix.chiSquare = chiSquare
        fix.degreesOfFreedom = dof
        return fix
    }

    @Test("the prior's information is taken out, exactly")
    func priorOut() {
        let m = PositionMeasurement(
            startingTrackAt: Self.fix(jx: 0.5, jy: 0.25, prior: 0.2), time: 7, maximumVariance: 100)
        #expect(abs(m.covarianceXX - 2) < 1e-12)
        #expect(abs(m.covarianceYY - 4) < 1e-12)
        #expect(abs(m.covarianceXY) < 1e-12)
        #expect(m.time == 7 && m.x == 3 && m.y == 4)
        // A correlated one: J = [[2, 1], [1, 3]] + 0.5 I gives back J⁻¹ = [[3, −1], [−1, 2]] / 5.
        var fix = Fix()
        let j = (xx: 2.5, xy: 1.0, yy: 3.5), det = j.xx * j.yy - j.xy * j.xy
        fix.covariance = PositionCovariance(xx: j.yy / det, xy: -j.xy / det, yy: j.xx / det)
        fix.centroidPriorWeight = 0.5
        let c = PositionMeasurement(startingTrackAt: fix, time: 0, maximumVariance: 100)
        #expect(
            abs(c.covarianceXX - 0.6) < 1e-12 && abs(c.covarianceXY + 0.2) < 1e-12 && abs(c.covarianceYY - 0.4) < 1e-12)
    }

    @Test("scaled by max(1, χ²/dof): up when the residuals scatter more than σ says, never down")
    func varianceFactor() {
        let wide = PositionMeasurement(
            startingTrackAt: Self.fix(jx: 1, jy: 1, prior: 0, chiSquare: 30, dof: 10), time: 0, maximumVariance: 100)
        #expect(abs(wide.covarianceXX - 3) < 1e-12 && abs(wide.covarianceYY - 3) < 1e-12)
        let tight = PositionMeasurement(
            startingTrackAt: Self.fix(jx: 1, jy: 1, prior: 0, chiSquare: 2, dof: 10), time: 0, maximumVariance: 100)
        #expect(tight.covarianceXX == 1 && tight.covarianceYY == 1)
    }

    @Test("readings that do not fix the position keep the prior; the variance stays bounded")
    func edges() {
        // Without the prior the x information would be negative: the prior stays in.
        let kept = PositionMeasurement(
            startingTrackAt: Self.fix(jx: -0.1, jy: 1, prior: 0.2), time: 0, maximumVariance: 100)
        #expect(abs(kept.covarianceXX - 10) < 1e-9 && abs(kept.covarianceYY - 1 / 1.2) < 1e-12)
        // Nearly nothing from the readings: scaled down whole to the bound.
        let capped = PositionMeasurement(
            startingTrackAt: Self.fix(jx: 1e-6, jy: 2e-6, prior: 0.5), time: 0, maximumVariance: 100)
        #expect(abs(max(capped.covarianceXX, capped.covarianceYY) - 100) < 1e-9)
        #expect(abs(capped.covarianceXX / capped.covarianceYY - 2) < 1e-6)
        // A fallback: as it is.
        var fallback = Fix()
        fallback.covariance = PositionCovariance(xx: 9, xy: 1, yy: 4)
        let same = PositionMeasurement(startingTrackAt: fallback, time: 0, maximumVariance: 100)
        #expect(same.covarianceXX == 9 && same.covarianceXY == 1 && same.covarianceYY == 4)
    }

    @Test("with tracking off a determined fix is reported with that covariance: each scan as a track's first report")
    func untrackedFixes() throws {
        // Single scans, one device each, with weighted-centroid fallbacks (no detection curve,
        // so a track starts at the solver's fix): each device's only report is the fix in both
        // modes, and only the timestamp differs (a snapshot stands for its window's middle).
        let (site, samples, _) = try EngineDetectionLearningTests.scans(count: 300, seed: 14)
        var tracked = PositioningEngine.Configuration()
        tracked.solver.fallback = .weightedCentroid
        var untracked = tracked
        untracked.tracking = .none
        let raw = try PositioningEngine.locate(samples, plan: site.plan, configuration: untracked)
        let first = try PositioningEngine.locate(samples, plan: site.plan, configuration: tracked)
        #expect(raw.count == first.count)
        let byDevice = Dictionary(uniqueKeysWithValues: first.map { ($0.device ?? "", $0) })
        var fixes = 0
        for report in raw {
            let other = try #require(byDevice[report.device ?? ""])
            #expect(other.timestamp - report.timestamp == 0.5)
            #expect(report.position == other.position)
            let (c, d) = (report.covariance, other.covariance)
            let scale = c.xx + c.yy
            #expect(
                abs(c.xx - d.xx) <= 1e-9 * scale && abs(c.xy - d.xy) <= 1e-9 * scale && abs(c.yy - d.yy) <= 1e-9 * scale
            )
            if report.source == .fix {
                #expect(other.source == .tracked)
                fixes += 1
            }
        }
        #expect(fixes > 50, "\(fixes) determined fixes")
    }
}
