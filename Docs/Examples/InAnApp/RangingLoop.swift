// The ranging-callback loop: each callback's beacons become samples, the engine is pushed and
// pulled, and a timer advances the clock so that positions keep coming when nothing is heard.
import Foundation
import IndoorPositioning

enum RangingLoop {
    /// A ranged beacon as a sample; nil for the platform's "not heard" RSSI of 0.
    static func sample(_ beacon: RangedBeacon, at time: Double, device: String? = nil) -> RSSISample? {
        guard beacon.rssi != 0, let major = UInt16(exactly: beacon.major), let minor = UInt16(exactly: beacon.minor)
        else {
            return nil
        }
        return RSSISample(
            timestamp: time, identity: BeaconIdentity(uuid: beacon.uuid, major: major, minor: minor),
            rssi: Double(beacon.rssi), device: device)
    }

    /// Twenty seconds of ranging, then five seconds in a lift (nothing heard): the engine's
    /// reports, tracked then predicted.
    static func run(plan: FloorPlan) throws -> (reports: [PositionReport], statistics: PositioningEngine.Statistics) {
        var engine = try PositioningEngine(plan: plan)
        var phone = RangingSimulation(plan: plan)
        var reports: [PositionReport] = []
        for second in 1...25 {
            let now = Double(second)
            if second <= 20 {
                // The ranging callback: called with the beacons heard, on the samples' clock.
                for (time, beacons) in phone.callback(at: now) {
                    for beacon in beacons { if let sample = sample(beacon, at: time) { engine.push(sample) } }
                    reports += engine.pull()
                }
            }
            // The one-second timer: close the epochs that are due even when nothing was heard.
            engine.advance(to: now)
            reports += engine.pull()
        }
        return (reports, engine.statistics)
    }
}
