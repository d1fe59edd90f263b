import Foundation
import IndoorPositioning
import TestSupport
import Testing

/// Two floors 4 m apart with the same 8-beacon layout; the walker spends the first half on
/// level 0 and the second on level 1. Beacons of the other floor are heard through the slab
/// with 15 dB of extra loss.
@Suite("Engine floor choice")
struct EngineFloorTests {
    static let floorLoss = 15.0
    static let elevation = 4.0

    /// `onStairs` puts the walker halfway between the floors with no slab in between, where
    /// both floors' beacons sound alike and only noise decides which is louder.
    static func site(
        seed: UInt64, switchAt: Double, duration: Double = 120, onStairs: Bool = false
    ) throws
        -> (plan: FloorPlan, samples: [RSSISample], walk: WalkSimulator)
    {
        var configuration = WalkSimulator.Configuration()
        configuration.duration = duration
        let walk = WalkSimulator(seed: seed, configuration: configuration)
        let c = walk.configuration
        let outline = Polygon([
            Point2D(x: 0, y: 0), Point2D(x: c.width, y: 0),
            Point2D(x: c.width, y: c.height), Point2D(x: 0, y: c.height)
        ])
        var floors: [Floor] = []
        for level in 0...1 {
            let beacons = walk.beacons.enumerated().map { index, p in
                Beacon(
                    identity: BeaconIdentity(uuid: SimulatedSite.uuid, major: UInt16(level), minor: UInt16(index + 1)),
                    position: Point3D(x: p.x, y: p.y, z: p.z))
            }
            floors.append(Floor(level: level, elevation: Double(level) * elevation, outline: outline, beacons: beacons))
        }
        let plan = try FloorPlan(
            name: "two floors",
            defaults: PlanDefaults(
                measuredPower: c.model.measuredPower,
                pathLossExponent: c.model.exponent,
                receiverHeight: c.receiverHeight),
            floors: floors)
        var g = SeededGenerator(seed: seed &+ 99)
        var samples: [RSSISample] = []
        var t = 0.0
        while t < duration {
            let onLevel = t < switchAt ? 0 : 1
            let p = walk.position(at: t)
            let floorZ = onStairs ? elevation / 2 : Double(onLevel) * elevation
            let receiver = Point3D(x: p.x, y: p.y, z: floorZ + c.receiverHeight)
            for level in 0...1 {
                for (index, b) in walk.beacons.enumerated() {
                    let beacon = Point3D(x: b.x, y: b.y, z: Double(level) * elevation + b.z)
                    let loss = level == onLevel || onStairs ? 0 : floorLoss
                    let rssi =
                        c.model.expectedRSSI(atDistance: receiver.distance(to: beacon)) - loss + g.gaussian(sigma: 4)
                    samples.append(
                        RSSISample(
                            timestamp: t + Double(index) * 0.03,
                            identity: BeaconIdentity(
                                uuid: SimulatedSite.uuid, major: UInt16(level),
                                minor: UInt16(index + 1)),
                            rssi: rssi))
                }
            }
            t += 0.25
        }
        return (plan, samples, walk)
    }

    @Test("a floor change is followed once, after the dwell time, and never flaps", arguments: [UInt64(1), 2, 3])
    func floorChange(seed: UInt64) throws {
        let (plan, samples, walk) = try Self.site(seed: seed, switchAt: 60)
        let reports = try PositioningEngine.locate(samples, plan: plan)
        let changes = zip(reports, reports.dropFirst()).filter { $0.level != $1.level }
        #expect(changes.count == 1)
        let change = try #require(changes.first)
        #expect(change.0.level == 0 && change.1.level == 1)
        // The floor rule waits for its dwell time (2.5 s) of clear evidence, not much longer.
        #expect(change.1.timestamp >= 60 && change.1.timestamp <= 66)
        // Positions stay good on both floors, and z follows the floor.
        let upper = reports.filter { $0.timestamp > 70 }
        #expect(upper.allSatisfy { $0.level == 1 && abs($0.position.z - (Self.elevation + 1.2)) < 1e-9 })
        let errors = reports.filter { $0.timestamp > 5 && abs($0.timestamp - 62) > 8 }
            .map { $0.position.planar.distance(to: walk.position(at: $0.timestamp)) }
        let rmse = (errors.map { $0 * $0 }.reduce(0, +) / Double(errors.count)).squareRoot()
        #expect(rmse < 2.2)
    }

    @Test("a walker on the stairs landing, heard alike by both floors, does not make the floor flap")
    func noFlapping() throws {
        let (plan, samples, _) = try Self.site(seed: 4, switchAt: .infinity, duration: 180, onStairs: true)
        func changes(_ floor: FloorEstimator.Configuration) throws -> Int {
            var configuration = PositioningEngine.Configuration()
            configuration.floor = floor
            let reports = try PositioningEngine.locate(samples, plan: plan, configuration: configuration)
            #expect(reports.count >= 170)
            return zip(reports, reports.dropFirst()).filter { $0.level != $1.level }.count
        }
        let without = try changes(.init(margin: 0, dwellTime: 0))
        let with = try changes(.init())
        print("floor changes on the stairs in 180 s: \(without) without hysteresis, \(with) with")
        #expect(without >= 10)
        #expect(with <= 1)
    }
}
