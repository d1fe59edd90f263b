import Foundation
import IndoorPositioning
import TestSupport
import Testing

@Suite("Position reports")
struct PositionReportTests {
    static let walk = SimulatedSite.walk(duration: 90)

    /// A simulated walk's reports, tracked and as raw fixes.
    static func trackedAndRaw(
        seed: UInt64
    ) throws -> (site: SimulatedSite, reports: ([PositionReport], [PositionReport])) {
        let site = try SimulatedSite(seed: seed, configuration: walk)
        var raw = PositioningEngine.Configuration()
        raw.tracking = .none
        return (
            site,
            (
                try PositioningEngine.locate(site.samples, plan: site.plan),
                try PositioningEngine.locate(site.samples, plan: site.plan, configuration: raw)
            )
        )
    }

    /// Rebuilds the covariance from the ellipse: R(θ) diag(a², b²) R(θ)ᵀ.
    static func covariance(of e: ErrorEllipse) -> (xx: Double, xy: Double, yy: Double) {
        let c = cos(e.orientation), s = sin(e.orientation)
        let a2 = e.semiMajor * e.semiMajor, b2 = e.semiMinor * e.semiMinor
        return (c * c * a2 + s * s * b2, c * s * (a2 - b2), s * s * a2 + c * c * b2)
    }

    @Test("every report's ellipse rebuilds its covariance, and accuracy² is the covariance's trace")
    func ellipseAgreesWithCovariance() throws {
        let (tracked, fixes) = try Self.trackedAndRaw(seed: 5).reports
        #expect(tracked.count >= 85 && fixes.count >= 85)
        var anisotropic = 0
        for report in tracked + fixes {
            let c = report.covariance
            let trace = c.xx + c.yy
            #expect(abs(report.accuracy * report.accuracy - trace) <= 1e-12 * max(trace, 1))
            #expect(c.xz == 0 && c.yz == 0 && c.zz == 0)
            let e = report.ellipse
            #expect(e.semiMajor >= e.semiMinor && e.semiMinor >= 0)
            let rebuilt = Self.covariance(of: e)
            let scale = max(trace, 1e-12)
            #expect(abs(rebuilt.xx - c.xx) <= 1e-9 * scale)
            #expect(abs(rebuilt.xy - c.xy) <= 1e-9 * scale)
            #expect(abs(rebuilt.yy - c.yy) <= 1e-9 * scale)
            if e.semiMajor > 1.2 * e.semiMinor { anisotropic += 1 }
        }
        // The real covariances are not circles (the test would not see a swapped axis otherwise).
        #expect(anisotropic > 20)
    }

    @Test("tracked reports carry the tracker's velocity; fixes carry none")
    func velocity() throws {
        let (site, (tracked, fixes)) = try Self.trackedAndRaw(seed: 6)
        #expect(fixes.allSatisfy { $0.velocity == nil && $0.speed == nil })
        let moving = tracked.filter { $0.source == .tracked }
        #expect(moving.count >= 85)
        #expect(moving.allSatisfy { $0.velocity != nil })
        let limit = TrackerConfiguration().maximumSpeed
        #expect(moving.allSatisfy { $0.speed! <= limit + 1e-9 })
        // The tracked velocity against the walker's (finite difference over the last half second):
        // the speed is higher on the legs than in the pauses, and the direction follows.
        func trueVelocity(at t: Double) -> Point2D {
            (1 / 0.5) * (site.walk.position(at: t) - site.walk.position(at: t - 0.5))
        }
        var walking: [Double] = [], standing: [Double] = [], cosines: [Double] = []
        for report in moving where report.timestamp > 5 {
            let truth = trueVelocity(at: report.timestamp), v = report.velocity!
            let trueSpeed = (truth.x * truth.x + truth.y * truth.y).squareRoot()
            if trueSpeed > 0.9 {
                walking.append(report.speed!)
                if report.speed! > 0.2 { cosines.append((truth.x * v.x + truth.y * v.y) / (trueSpeed * report.speed!)) }
            } else if trueSpeed < 0.05 {
                standing.append(report.speed!)
            }
        }
        func mean(_ values: [Double]) -> Double { values.reduce(0, +) / Double(max(values.count, 1)) }
        #expect(walking.count > 30 && standing.count > 5 && cosines.count > 20)
        // Measured on this walk: 0.59 m/s walking, 0.47 standing (the τ = 2 s velocity model damps
        // speed), mean cosine 0.79. Random or zero velocities would give a cosine near 0.
        #expect(mean(walking) > mean(standing) + 0.05, "walking \(mean(walking)) m/s, standing \(mean(standing)) m/s")
        #expect(mean(cosines) > 0.6, "mean cosine between tracked and true velocity \(mean(cosines))")
    }

    @Test("setting accuracy rescales the covariance and keeps the ellipse's shape")
    func accuracySetter() {
        var report = PositionReport(
            timestamp: 0, device: nil, position: Point3D(x: 0, y: 0, z: 1.2), level: 0,
            covariance: PositionCovariance(xx: 4, xy: 1, yy: 1), zone: nil, source: .tracked, beaconCount: 3)
        let before = report.ellipse
        report.accuracy = 1
        #expect(abs(report.covariance.xx + report.covariance.yy - 1) < 1e-12)
        #expect(abs(report.ellipse.orientation - before.orientation) < 1e-12)
        #expect(abs(report.ellipse.semiMajor / report.ellipse.semiMinor - before.semiMajor / before.semiMinor) < 1e-9)
        let isotropic = PositionReport(
            timestamp: 0, device: nil, position: Point3D(x: 0, y: 0, z: 0), level: 0,
            accuracy: 2, zone: nil, source: .fix, beaconCount: 3)
        #expect(isotropic.covariance == PositionCovariance(xx: 2, xy: 0, yy: 2))
    }

    @Test("statuses and reports print without module or type names")
    func descriptions() {
        #expect(String(describing: FixStatus.fallback(.unsolved)) == "fallback(unsolved)")
        #expect(
            "\(FixStatus.fallback(.tooFewBeacons(available: 2, required: 3)))"
                == "fallback(tooFewBeacons(available: 2, required: 3))")
        #expect("\(FixStatus.degenerate(rank: 1))" == "degenerate(rank: 1)")
        #expect("\(FixStatus.converged)" == "converged")
        #expect("\(PositionReport.Source.predicted)" == "predicted")
        #expect("\(PositioningEngine.SampleOutcome.late)" == "late")
        #expect("\(PositioningEngine.TrackingMode.kalman)" == "kalman")
        let report = PositionReport(
            timestamp: 12, device: "phone-1", position: Point3D(x: 3.1, y: 4.2, z: 1.82), level: 0,
            covariance: PositionCovariance(xx: 1, xy: 0, yy: 0.44), velocity: Point2D(x: 0.6, y: 0.8),
            zone: "lobby", source: .tracked, beaconCount: 4)
        #expect("\(report)" == "t=12.000 phone-1 (3.10, 4.20, 1.82) ±1.20 m level 0 zone lobby tracked 1.00 m/s")
        var fix = Fix()
        fix.position = Point3D(x: 1, y: 2, z: 1.2)
        fix.accuracy = 0.5
        fix.usedBeacons = [SimulatedSite.identity(0), SimulatedSite.identity(1), SimulatedSite.identity(2)]
        #expect("\(fix)" == "fallback(unsolved) (1.00, 2.00, 1.20) ±0.50 m level 0, 3 beacons")
    }
}
