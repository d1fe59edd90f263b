import BeaconModel
import Foundation
import TestSupport
import Testing

@testable import IndoorPositioning

/// The standard errors of the models considered in the radius, and the design effect that makes
/// standard errors learned from a still phone's samples honest.
@Suite("Engine: the radius considers the models' stated uncertainty")
struct ModelUncertaintyRadiusTests {
    @Test("stated P₀ errors of 3 dB widen every tracked radius after the start and move no position")
    func statedUncertainty() throws {
        let site = try EngineMisfitRadiusTests.misfitSite(seed: 1, spread: 0)
        let configuration = PositioningEngine.Configuration()
        var stated = configuration
        for beacon in site.plan.beacons {
            stated.modelUncertainty[beacon.identity] = PathLossUncertainty(measuredPowerSigma: 3, exponentSigma: 0)
        }
        let plain = try PositioningEngine.locate(site.samples, plan: site.plan, configuration: configuration)
        let widened = try PositioningEngine.locate(site.samples, plan: site.plan, configuration: stated)
        #expect(plain.map(\.position) == widened.map(\.position))
        let pairs = zip(plain, widened).filter { $0.0.source == .tracked && $0.0.timestamp >= 30 }
        #expect(pairs.count > 100)
        #expect(pairs.allSatisfy { $0.1.accuracy > $0.0.accuracy && $0.1.accuracy.isFinite })
        let before = site.honesty(plain.filter { $0.timestamp >= 30 })
        let after = site.honesty(widened.filter { $0.timestamp >= 30 })
        print(
            String(
                format: "stated 3-dB P₀ errors on a site that follows its models: honesty %.0f → %.0f %%", 100 * before,
                100 * after))
        #expect(after > before)
    }

    @Test("the consider geometry with stated model variances equals F⁻¹ (σ² G + K) F⁻¹ computed directly")
    func considerWithModelVariance() {
        let beacons: [(gx: Double, gy: Double, w: Double, s2: Double)] = [
            (1.2, 0.3, 0.5, 4), (-0.8, 0.9, 1.5, 0), (0.1, -1.4, 0.7, 9), (-0.5, -0.2, 2.0, 1)
        ]
        var geometry = ConsiderGeometry(withOffset: false)
        for b in beacons { geometry.add(gx: b.gx, gy: b.gy, weight: b.w, modelVariance: b.s2) }
        let c = geometry.covariance(biasVariance: 2)
        // Direct 2 × 2.
        var f = (0.0, 0.0, 0.0), m = (0.0, 0.0, 0.0)
        for b in beacons {
            f = (f.0 + b.w * b.gx * b.gx, f.1 + b.w * b.gx * b.gy, f.2 + b.w * b.gy * b.gy)
            let v = b.w * b.w * (2 + b.s2)
            m = (m.0 + v * b.gx * b.gx, m.1 + v * b.gx * b.gy, m.2 + v * b.gy * b.gy)
        }
        let det = f.0 * f.2 - f.1 * f.1
        let i = (f.2 / det, -f.1 / det, f.0 / det)
        // A = F⁻¹ M F⁻¹ for symmetric 2 × 2 matrices.
        let t = (i.0 * m.0 + i.1 * m.1, i.0 * m.1 + i.1 * m.2, i.1 * m.0 + i.2 * m.1, i.1 * m.1 + i.2 * m.2)
        let xx = t.0 * i.0 + t.1 * i.1, xy = t.0 * i.1 + t.1 * i.2, yy = t.2 * i.1 + t.3 * i.2
        #expect(abs(c.xx - xx) <= 1e-9 * xx && abs(c.yy - yy) <= 1e-9 * yy && abs(c.xy - xy) <= 1e-9 * max(abs(xy), 1))
        // No pooled spread, stated variances alone still count.
        #expect(geometry.covariance(biasVariance: 0).xx > 0)
    }

    @Test(
        "place clusters: a phone held at 5 points, each point's shadowing kept, has ρ near the share the places hold and a design effect near 1 + (m − 1) ρ; a walk with fresh shadowing every sample has none"
    )
    func designEffect() throws {
        var generator = SeededGenerator(seed: 5)
        var still = PlaceClusters(slotCount: 3)
        var walking = PlaceClusters(slotCount: 3)
        // Per place and beacon a fixed 4-dB field, plus 2 dB that changes every sample: ρ = 16/20.
        let points = [(1.0, 1.0), (7.0, 1.0), (4.0, 5.0), (1.0, 9.0), (7.0, 9.0)]
        for slot in 0..<3 {
            for (x, y) in points {
                let field = generator.gaussian(sigma: 4)
                for _ in 0..<100 {
                    let receiver = Point3D(x: x + 0.1 * generator.gaussian(sigma: 1), y: y, z: 1)
                    still.add(slot: slot, device: 0, receiver: receiver, residual: field + generator.gaussian(sigma: 2))
                }
            }
            for k in 0..<500 {
                let receiver = Point3D(x: 0.05 * Double(k), y: 3, z: 1)
                walking.add(slot: slot, device: 0, receiver: receiver, residual: generator.gaussian(sigma: 4.5))
            }
        }
        let rho = still.intraclassCorrelation
        let effects = still.designEffects
        print(
            String(
                format: "still phone: ρ %.2f (true 0.80), design effect %.1f; walk: ρ %.3f", rho, effects[0],
                walking.intraclassCorrelation))
        #expect(abs(rho - 0.8) <= 0.2)
        #expect(effects.allSatisfy { $0 > 40 && $0 < 110 })
        #expect(walking.intraclassCorrelation < 0.05)
        #expect(walking.designEffects.allSatisfy { $0 < 2 })
        // The places' own variance is the fixed field's 16 dB². Its estimate has 12 degrees of
        // freedom (15 beacon-places less 3 beacons): χ²₁₂/12 lies in 0.30–2.18 with 98 %
        // probability. The walk's is 0 within about 0.1 dB² (36 between-cell degrees of
        // freedom, 40 pairs a cell).
        print(
            String(
                format: "place variance: still %.1f dB² (true 16), walk %.2f dB²", still.placeVariance ?? -1,
                walking.placeVariance ?? -1))
        let field = try #require(still.placeVariance)
        #expect(field >= 0.3 * 16 && field <= 2.18 * 16)
        #expect(try #require(walking.placeVariance) < 1)
        // Nothing to tell: no pairs at all, or non-finite input, gives 1 and no NaN.
        var empty = PlaceClusters(slotCount: 2)
        empty.add(slot: 0, device: 0, receiver: Point3D(x: .nan, y: 0, z: 0), residual: 1)
        empty.add(slot: 5, device: 0, receiver: Point3D(x: 0, y: 0, z: 0), residual: 1)
        #expect(empty.designEffects == [1, 1])
        #expect(empty.placeVariance == nil)
        // Single scans: one pair per device and cell. Forty phones scan at each of five places
        // whose own field is 16 dB², with 2 dB of their own: no device hears a place twice, so
        // the places' variance comes from the cells across devices (4 degrees of freedom per
        // beacon, 12 in all: the same 98 % band).
        var scans = PlaceClusters(slotCount: 3)
        for slot in 0..<3 {
            for (p, (x, y)) in points.enumerated() {
                let field = generator.gaussian(sigma: 4)
                for phone in 0..<40 {
                    let receiver = Point3D(x: x + 0.1 * generator.gaussian(sigma: 1), y: y, z: 1)
                    scans.add(
                        slot: slot, device: 40 * p + phone, receiver: receiver,
                        residual: field + generator.gaussian(sigma: 2))
                }
            }
        }
        let shared = try #require(scans.placeVariance)
        #expect(shared >= 0.3 * 16 && shared <= 2.18 * 16)
        #expect(scans.intraclassCorrelation == 0)
    }
}
