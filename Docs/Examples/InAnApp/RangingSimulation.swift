// Stands in for the phone: what a ranging callback would deliver each second while someone
// walks through the office. On iOS this comes from CLLocationManager (see the
// IndoorPositioningCoreLocation target); here it is computed from the path-loss model.
import Foundation
import IndoorPositioning

/// One beacon as a ranging callback reports it: identity and an integer RSSI in dBm, 0 when
/// the beacon was not heard this second (as `CLBeacon.rssi` does).
struct RangedBeacon {
    var uuid: UUID
    var major: Int
    var minor: Int
    var rssi: Int
}

struct RangingSimulation {
    let plan: FloorPlan
    private var state: UInt64 = 0x9E37_79B9_7F4A_7C15

    init(plan: FloorPlan) { self.plan = plan }

    /// Where the walker is at `time`: along the office and back, 1 m/s.
    func truth(at time: Double) -> Point2D {
        let along = (time.truncatingRemainder(dividingBy: 32)) / 16
        let x = 2 + 16 * (along <= 1 ? along : 2 - along)
        return Point2D(x: x, y: 6 + 2 * sin(time / 5))
    }

    /// The beacons heard in the second before `time`, four readings each (log-distance
    /// model with 4 dB of shadowing), as one callback.
    mutating func callback(at time: Double) -> [(time: Double, beacons: [RangedBeacon])] {
        var deliveries: [(Double, [RangedBeacon])] = []
        for step in 0..<4 {
            let t = time - 1 + Double(step) / 4
            let p = truth(at: t)
            let heard = plan.beacons.map { beacon -> RangedBeacon in
                let dx = p.x - beacon.position.x, dy = p.y - beacon.position.y
                let dz = plan.defaults.receiverHeight - beacon.position.z
                let d = (dx * dx + dy * dy + dz * dz).squareRoot()
                let rssi = -59 - 20 * log10(d) + 4 * gaussian()
                return RangedBeacon(
                    uuid: beacon.identity.uuid, major: Int(beacon.identity.major),
                    minor: Int(beacon.identity.minor), rssi: d > 25 ? 0 : Int(rssi.rounded()))
            }
            deliveries.append((t, heard))
        }
        return deliveries
    }

    private mutating func uniform() -> Double {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return (Double(state >> 11) + 0.5) / Double(1 << 53)
    }

    private mutating func gaussian() -> Double {
        (-2 * log(uniform())).squareRoot() * cos(2 * Double.pi * uniform())
    }
}
