import BeaconModel
import Foundation
import Ranging
import Testing

@testable import Trilateration

/// Inputs the fuzzer (Fuzz/FuzzSolver) found, kept as tests: finite but extreme values give a
/// typed error or a finite fix, never NaN.
@Suite("Solver: fuzzer findings")
struct FuzzRegressionTests {
    static let uuid = UUID(uuidString: "B1E5E0A1-7D2C-4C55-9A51-5D3E2C1A0B0C")!

    static func observation(
        _ minor: UInt16, x: Double, y: Double, rssi: Double = -70,
        model: PathLossModel = PathLossModel(measuredPower: -59, exponent: 2, sigma: 4)
    ) -> BeaconObservation {
        BeaconObservation(
            identity: BeaconIdentity(uuid: uuid, major: 1, minor: minor), position: Point3D(x: x, y: y, z: 2),
            level: 0, model: model, meanRSSI: rssi, count: 5)
    }

    @Test("beacons at 6e182 m (the fuzzer's NaN ellipse) are an outOfRange error naming the coordinate")
    func hugeCoordinates() {
        var solver = TrilaterationSolver()
        let observations = [
            Self.observation(1, x: -6.436933480335038e182, y: -60857.8),
            Self.observation(2, x: -6.436933480335038e182, y: -60857.8)
        ]
        #expect(
            throws: TrilaterationError.outOfRange(
                observations[0].identity, field: "coordinate", value: -6.436933480335038e182,
                range: -1e6...1e6)
        ) { try solver.solve(observations) }
    }

    @Test("coordinates at the limit and a 1-cm room far from the origin give finite fixes")
    func limitAndTinyRoom() throws {
        var solver = TrilaterationSolver()
        for (origin, size) in [
            (TrilaterationSolver.coordinateLimit - 20, 10.0), (-TrilaterationSolver.coordinateLimit + 1, 0.01),
            (0, 0.01)
        ] {
            let observations = [
                Self.observation(1, x: origin, y: origin), Self.observation(2, x: origin + size, y: origin),
                Self.observation(3, x: origin, y: origin + size),
                Self.observation(4, x: origin + size, y: origin + size, rssi: -72)
            ]
            let fix = try solver.solve(observations)
            for value in [
                fix.position.x, fix.position.y, fix.accuracy, fix.covariance.xx, fix.covariance.xy, fix.covariance.yy,
                fix.ellipse.semiMajor, fix.ellipse.semiMinor, fix.ellipse.orientation, fix.residualRMS
            ] {
                #expect(value.isFinite, "origin \(origin), size \(size)")
            }
            #expect(!fix.gdop.isNaN)
            #expect(
                fix.covariance.xx > 0 && fix.covariance.yy > 0
                    && fix.covariance.xx * fix.covariance.yy > fix.covariance.xy * fix.covariance.xy)
        }
    }

    @Test(
        "models and RSSI beyond the solver's limits are outOfRange errors",
        arguments: [
            (PathLossModel(measuredPower: -1e300, exponent: 2, sigma: 4), -70.0, "measured power"),
            (PathLossModel(measuredPower: -59, exponent: 1e-300, sigma: 4), -70.0, "path-loss exponent"),
            (PathLossModel(measuredPower: -59, exponent: 2, sigma: 1e-200), -70.0, "sigma"),
            (PathLossModel(measuredPower: -59, exponent: 2, sigma: 4), -1e300, "mean RSSI")
        ])
    func extremeModels(model: PathLossModel, rssi: Double, field: String) {
        var solver = TrilaterationSolver()
        let observations = [
            Self.observation(1, x: 0, y: 0, rssi: rssi, model: model), Self.observation(2, x: 5, y: 0),
            Self.observation(3, x: 0, y: 5)
        ]
        do {
            _ = try solver.solve(observations)
            Issue.record("no error for \(field)")
        } catch {
            guard case .outOfRange(_, let named, _, _) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(named == field)
            #expect(error.description.contains("check the plan, calibration or units"))
        }
    }
}
