import Foundation
import IndoorPositioning

// Runs N steady-state maximum-likelihood fixes (2D, 8 beacons) after a warm-up, so that
// `valgrind --tool=memcheck` totals for two values of N give the allocations per fix:
//   valgrind ./AllocationCheck 10000  vs  valgrind ./AllocationCheck 20000
// Equal "total heap usage" allocation counts mean zero allocations per fix.
let count = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 10_000 : 10_000
let model = PathLossModel(measuredPower: -59, exponent: 2, sigma: 4)
let anchors: [(Double, Double)] = [
    (0.5, 0.5), (12, 0.3), (23.5, 0.5), (23.7, 8),
    (23.5, 15.5), (12, 15.7), (0.5, 15.5), (0.3, 8)
]
var scenes: [[BeaconObservation]] = []
struct XorShift {
    var state: UInt64 = 0x2545_F491_4F6C_DD1D
    mutating func uniform() -> Double {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return Double(state >> 11) / Double(1 << 53)
    }
}
var generator = XorShift()
for _ in 0..<256 {
    let x = 1 + 22 * generator.uniform(), y = 1 + 14 * generator.uniform()
    scenes.append(
        anchors.enumerated().map { k, anchor in
            let d = ((x - anchor.0) * (x - anchor.0) + (y - anchor.1) * (y - anchor.1) + 1.96).squareRoot()
            let noise =
                2
                * ((-2 * log(max(generator.uniform(), 1e-300))).squareRoot() * cos(2 * Double.pi * generator.uniform()))
            return BeaconObservation(
                identity: BeaconIdentity(
                    uuid: UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1)),
                    major: 1, minor: UInt16(k)),
                position: Point3D(x: anchor.0, y: anchor.1, z: 2.6), level: 0, model: model,
                meanRSSI: min(model.expectedRSSI(atDistance: d) + noise, 0), count: 4)
        })
}
var solver = TrilaterationSolver()
var fix = Fix(reservingCapacity: 8)
for scene in scenes { try? solver.solve(scene, into: &fix) }
var rejected = 0, iterations = 0
for i in 0..<count {
    try? solver.solve(scenes[i & 255], into: &fix)
    rejected += fix.rejectedBeacons.count
    iterations += fix.iterations
}
print("solved \(count) fixes, \(rejected) rejections, \(Double(iterations) / Double(max(count, 1))) iterations per fix")
