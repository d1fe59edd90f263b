import Foundation
import FuzzSupport
import IndoorPositioning

private let uuid = UUID(uuidString: "B1E5E0A1-7D2C-4C55-9A51-5D3E2C1A0B0C")!

/// The solver on random geometry and RSSI: it throws a `TrilaterationError` or returns a fix
/// whose every number is finite, with a symmetric positive-definite horizontal covariance.
func fuzz(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    var input = FuzzInput(data, count: count)
    let n = Int(input.byte() % 12) + 1
    // Scale of the scene: from a 1-cm room to a 100-km site, so that tiny rooms and huge
    // coordinates are both covered.
    let scale = pow(10, input.double(in: -2...5))
    let origin = input.double(in: -1e6...1e6)
    var observations: [BeaconObservation] = []
    for i in 0..<n {
        let position = Point3D(
            x: origin + scale * input.mostly(in: -1...1), y: origin + scale * input.mostly(in: -1...1),
            z: input.mostly(in: 0...4))
        let model = PathLossModel(
            measuredPower: input.mostly(in: -100...(-30)), exponent: input.mostly(in: 0.5...6),
            sigma: input.mostly(in: 0.1...15))
        observations.append(
            BeaconObservation(
                identity: BeaconIdentity(uuid: uuid, major: 1, minor: UInt16(i % 4)), position: position,
                level: Int(input.byte() % 2), model: model, meanRSSI: input.mostly(in: -130...(-20)),
                count: Int(input.byte() % 20)))
    }
    var configuration = TrilaterationSolver.Configuration()
    if input.byte() & 1 == 1 { configuration.dimension = .spatial }
    var solver = TrilaterationSolver(configuration: configuration)
    let fix: Fix
    do {
        fix = try solver.solve(observations)
    } catch {
        _ = String(describing: error)
        return 0
    }
    let c = fix.covariance
    let numbers = [
        fix.position.x, fix.position.y, fix.position.z, fix.accuracy, fix.residualRMS,
        fix.ellipse.semiMajor, fix.ellipse.semiMinor, fix.ellipse.orientation, c.xx, c.xy, c.yy, c.xz, c.yz, c.zz
    ]
    require(numbers.allSatisfy(\.isFinite), "non-finite number in the fix: \(numbers) status \(fix.status)")
    // GDOP is documented as +infinity when the geometry does not determine the position (also
    // at a converged point where the lines of sight are numerically parallel); never NaN.
    require(fix.gdop.isFinite || fix.gdop == .infinity, "gdop \(fix.gdop), status \(fix.status)")
    require(
        isPositiveDefinite(xx: c.xx, xy: c.xy, yy: c.yy), "covariance not positive-definite: \(c), status \(fix.status)"
    )
    require(fix.accuracy >= 0, "negative accuracy \(fix.accuracy)")
    return 0
}

@_cdecl("FuzzSolver_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv) { data, count in fuzz(data!, count) }
}
