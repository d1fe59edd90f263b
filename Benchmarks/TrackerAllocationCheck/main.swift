import Foundation
import IndoorPositioning

// Runs N steady-state epochs of the engine's tracker bank (independent and correlated
// shadowing members, device offset estimated, 8 beacons heard 4 times each per epoch) after a
// warm-up, so that `valgrind --tool=memcheck` totals for two values of N give the allocations
// per epoch and per sample:
//   valgrind ./TrackerAllocationCheck 2000  vs  valgrind ./TrackerAllocationCheck 4000
// Equal "total heap usage" allocation counts mean zero allocations per epoch.
//   valgrind ./TrackerAllocationCheck 2000 motion-modes   (the same with the motion modes mixed)
//   valgrind ./TrackerAllocationCheck 2000 motion-modes activity   (and an activity hint before
//   every epoch, ten epochs stationary, ten walking)
//   valgrind ./TrackerAllocationCheck 2000 lag   (fixed-lag smoothing: history recorded, steps
//   older than 3 s discarded and the window smoothed after every epoch, as the engine's lag)
let count = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 2_000 : 2_000
let motionModes = CommandLine.arguments.dropFirst(2).contains("motion-modes") ? MotionModes() : nil
let lag = CommandLine.arguments.dropFirst(2).contains("lag")
let recordOnly = CommandLine.arguments.dropFirst(2).contains("record-only")
let activity = CommandLine.arguments.dropFirst(2).contains("activity")
let model = PathLossModel(measuredPower: -59, exponent: 2, sigma: 4)
let anchors: [(Double, Double)] = [
    (0.5, 0.5), (12, 0.3), (23.5, 0.5), (23.7, 8),
    (23.5, 15.5), (12, 15.7), (0.5, 15.5), (0.3, 8)
]
struct XorShift {
    var state: UInt64 = 0x2545_F491_4F6C_DD1D
    mutating func uniform() -> Double {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return Double(state >> 11) / Double(1 << 53)
    }
    mutating func gaussian() -> Double {
        (-2 * log(max(uniform(), 1e-300))).squareRoot() * cos(2 * Double.pi * uniform())
    }
}
var generator = XorShift()
// 64 epochs of samples along a loop through the room, reused cyclically (times shifted).
var epochs: [[RSSIMeasurement]] = []
for e in 0..<64 {
    var samples: [RSSIMeasurement] = []
    for k in 0..<4 {
        let t = Double(e) + Double(k) / 4
        let x = 12 + 8 * cos(t / 10), y = 8 + 5 * sin(t / 10)
        for (j, anchor) in anchors.enumerated() {
            let d = ((x - anchor.0) * (x - anchor.0) + (y - anchor.1) * (y - anchor.1) + 1.96).squareRoot()
            samples.append(
                RSSIMeasurement(
                    time: t, beaconPosition: Point3D(x: anchor.0, y: anchor.1, z: 2.6),
                    model: model, rssi: min(model.expectedRSSI(atDistance: d) + 4 * generator.gaussian(), -1),
                    beaconKey: j))
        }
    }
    epochs.append(samples)
}
var bank = try TrackerBank(
    first: PositionMeasurement(time: 0, position: Point2D(x: 20, y: 8), sigma: 2),
    configuration: {
        var c = TrackerConfiguration(motionModes: motionModes)
        c.recordsHistory = lag || recordOnly
        return c
    }(), offset: DeviceOffsetModel(),
    shadowing: [.independent, ShadowingModel(maximumStates: 8)], floorElevation: 0)
var shifted = epochs[0]
var window = TrackerBank.WindowWorkspace()
var smoothed: [TrackEstimate] = []
var smoothedX = 0.0
@MainActor func run(_ n: Int, from start: Int) throws {
    for i in start..<(start + n) {
        let source = epochs[i & 63]
        let shift = Double(i - (i & 63))
        for k in source.indices {
            shifted[k] = source[k]
            shifted[k].time += shift
        }
        if activity { bank.observe(i % 20 < 10 ? .stationary : .walking) }
        try bank.update(shifted, at: Double(i) + 1)
        if recordOnly { bank.discardHistory(before: Double(i) + 1 - 3) }
        if lag {
            bank.discardHistory(before: Double(i) + 1 - 3)
            try bank.smoothedWindow(into: &smoothed, workspace: &window)
            smoothedX += smoothed[0].position.x
        }
    }
}
try run(256, from: 0)  // warm-up: scratch space reaches its size
try run(count, from: 256)
let e = bank.estimate
print(
    String(
        format: "ran %d epochs (%d samples): position (%.2f, %.2f) m, offset %.2f dB, weights %@",
        count, count * 32, e.position.x, e.position.y, bank.deviceOffset,
        bank.weights.map { String(format: "%.2f", $0) }.joined(separator: "/")))
if lag { print(String(format: "lagged x summed over the epochs: %.1f m", smoothedX)) }
