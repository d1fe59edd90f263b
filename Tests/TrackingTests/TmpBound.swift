import Foundation
import Testing
import TestSupport
@testable import Tracking

@Suite struct TmpBound {
    @Test func bound() throws {
        guard ProcessInfo.processInfo.environment["EXPLORE"] != nil else { return }
        for (name, motion) in [("CV q0.2", MotionModel(density: 0.2, correlationTime: nil)), ("OU q0.8 tau2", MotionModel(density: 0.8, correlationTime: 2))] {
            var total = 0.0
            for seed in UInt64(1)...8 {
                let walk = WalkSimulator(seed: seed)
                let c = walk.configuration
                var p = Matrix4.diagonal(Vector4(4, 4, 0.64, 0.64))
                var t = 0.0
                var sum = 0.0, n = 0.0
                var epoch = 1.0
                for s in walk.samples {
                    while s.time >= epoch {
                        // predict to the epoch end and record
                        let f = motion.transition(epoch - t)
                        var pe = f * p * f.transposed
                        let (a, b, cc) = motion.noise(epoch - t)
                        pe.r0 += Vector4(a, 0, b, 0); pe.r1 += Vector4(0, a, 0, b); pe.r2 += Vector4(b, 0, cc, 0); pe.r3 += Vector4(0, b, 0, cc)
                        if epoch >= 2 { sum += pe[0, 0] + pe[1, 1]; n += 1 }
                        epoch += 1
                    }
                    let dt = s.time - t
                    let f = motion.transition(dt)
                    p = f * p * f.transposed
                    let (a, b, cc) = motion.noise(dt)
                    p.r0 += Vector4(a, 0, b, 0); p.r1 += Vector4(0, a, 0, b); p.r2 += Vector4(b, 0, cc, 0); p.r3 += Vector4(0, b, 0, cc)
                    t = s.time
                    let truth = walk.position(at: s.time)
                    let bcn = walk.beacons[s.beacon]
                    let dx = truth.x - bcn.x, dy = truth.y - bcn.y, dz = c.receiverHeight - bcn.z
                    let d2 = dx * dx + dy * dy + dz * dz
                    let k = c.model.logSlope
                    let h = Vector4(-k * dx / d2, -k * dy / d2, 0, 0)
                    let ph = p * h
                    let sv = (h * ph).sum() + c.model.sigma * c.model.sigma
                    let kg = ph / sv
                    let aa = Matrix4.identity - Matrix4.outer(kg, h)
                    p = (aa * p * aa.transposed + c.model.sigma * c.model.sigma * Matrix4.outer(kg, kg)).symmetrized
                }
                let r = (sum / n).squareRoot()
                total += r
                print(String(format: "BOUND %@ seed %d: %.3f m", name, seed, r))
            }
            print(String(format: "BOUND %@ MEAN: %.3f m", name, total / 8))
        }
    }
}
