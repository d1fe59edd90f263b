import Foundation
import IndoorPositioning
import TestSupport
import Testing

/// A phone going upstairs into another wing: level 1 lies 30 m east of level 0 (its own outline
/// and beacons), so the position on the old floor means nothing on the new one.
@Suite("Engine: a floor change moves the position to the new floor's estimate")
struct EngineStairWalkTests {
    static let shift = 30.0

    @Test(
        "after the switch the position is the new floor's (no clamping to an edge), and the zone follows within its hysteresis",
        arguments: [UInt64(1), 2, 3])
    func stairWalk(seed: UInt64) throws {
        var configuration = WalkSimulator.Configuration()
        configuration.duration = 120
        let walk = WalkSimulator(seed: seed, configuration: configuration)
        let c = walk.configuration
        var floors: [Floor] = []
        for level in 0...1 {
            let dx = Double(level) * Self.shift
            let outline = Polygon([
                Point2D(x: dx, y: 0), Point2D(x: dx + c.width, y: 0),
                Point2D(x: dx + c.width, y: c.height), Point2D(x: dx, y: c.height)
            ])
            let beacons = walk.beacons.enumerated().map { index, p in
                Beacon(
                    identity: BeaconIdentity(uuid: SimulatedSite.uuid, major: UInt16(level), minor: UInt16(index + 1)),
                    position: Point3D(x: p.x + dx, y: p.y, z: p.z))
            }
            let zones = level == 1 ? [Zone(id: "east-wing", polygon: outline)] : []
            floors.append(
                Floor(level: level, elevation: Double(level) * 4, outline: outline, zones: zones, beacons: beacons))
        }
        let plan = try FloorPlan(
            name: "two wings",
            defaults: PlanDefaults(
                measuredPower: -59, pathLossExponent: 2,
                receiverHeight: c.receiverHeight), floors: floors)
        // Upstairs at 60 s; the other floor's beacons are heard through the slab, 15 dB weaker.
        var g = SeededGenerator(seed: seed &+ 7)
        var samples: [RSSISample] = []
        var t = 0.0
        func truth(_ t: Double) -> Point2D {
            walk.position(at: t) + Point2D(x: t < 60 ? 0 : Self.shift, y: 0)
        }
        while t < c.duration {
            let onLevel = t < 60 ? 0 : 1
            let p = truth(t)
            let receiver = Point3D(x: p.x, y: p.y, z: Double(onLevel) * 4 + c.receiverHeight)
            for floor in floors {
                for (index, beacon) in floor.beacons.enumerated() {
                    let b = Point3D(x: beacon.position.x, y: beacon.position.y, z: floor.elevation + beacon.position.z)
                    let loss = floor.level == onLevel ? 0 : 15.0
                    let rssi = c.model.expectedRSSI(atDistance: receiver.distance(to: b)) - loss + g.gaussian(sigma: 4)
                    samples.append(
                        RSSISample(timestamp: t + Double(index) * 0.03, identity: beacon.identity, rssi: rssi))
                }
            }
            t += 0.25
        }
        let reports = try PositioningEngine.locate(samples, plan: plan)
        let upstairs = reports.filter { $0.level == 1 }
        let first = try #require(upstairs.first)
        #expect(first.timestamp >= 60 && first.timestamp <= 66)
        // The first reports on the new floor are its own estimate, not the old position held at
        // the new outline's west edge (which is up to 24 m off here).
        for report in upstairs.prefix(3) {
            let error = report.position.planar.distance(to: truth(report.timestamp))
            #expect(error < 4, "seed \(seed): \(report.timestamp) s, error \(error) m")
        }
        // The zone follows within its hysteresis (a few seconds).
        let zoned = try #require(upstairs.first { $0.zone == "east-wing" })
        #expect(zoned.timestamp - first.timestamp <= 6)
        #expect(upstairs.filter { $0.timestamp > first.timestamp + 10 }.allSatisfy { $0.zone == "east-wing" })
    }
}
