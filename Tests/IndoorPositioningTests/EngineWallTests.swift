import Foundation
import IndoorPositioning
import TestSupport
import Testing

/// Two rooms parted by a wall at x = 10 with a door at y 8–10: a phone walks from the middle of
/// the west room through the door to the middle of the east room and back, 6 dB per wall
/// crossed, 3 dB of shadowing (seeded).
@Suite("Engine with walls")
struct EngineWallTests {
    static let uuid = UUID(uuidString: "F7826DA6-4FA2-4E98-8024-BC5B71E0893E")!
    static let beaconPoints = [
        Point2D(x: 0.3, y: 2), Point2D(x: 5, y: 9.7), Point2D(x: 9.7, y: 3), Point2D(x: 10.3, y: 2),
        Point2D(x: 15, y: 9.7), Point2D(x: 19.7, y: 5)
    ]
    static let wallSegments = [Wall(from: Point2D(x: 10, y: 0), to: Point2D(x: 10, y: 8))]

    static func identity(_ i: Int) -> BeaconIdentity { BeaconIdentity(uuid: uuid, major: 1, minor: UInt16(i + 1)) }

    static func plan(walls: [Wall]) throws -> FloorPlan {
        let outline = Polygon([Point2D(x: 0, y: 0), Point2D(x: 20, y: 0), Point2D(x: 20, y: 10), Point2D(x: 0, y: 10)])
        return try FloorPlan(
            name: "two rooms",
            floors: [
                Floor(
                    level: 0, outline: outline,
                    beacons: beaconPoints.enumerated().map {
                        Beacon(
                            identity: identity($0.offset), position: Point3D(x: $0.element.x, y: $0.element.y, z: 2.5))
                    },
                    walls: walls)
            ])
    }

    /// The walk's way points: west room, the door, east room, the door, west room.
    static let route = [
        Point2D(x: 4, y: 4), Point2D(x: 9, y: 9), Point2D(x: 11, y: 9), Point2D(x: 16, y: 4),
        Point2D(x: 11, y: 9), Point2D(x: 9, y: 9), Point2D(x: 4, y: 4)
    ]

    /// Samples at 10 Hz over the route at 1 m/s (each beacon every 0.5 s), and the true track.
    static func samples(seed: UInt64) -> [RSSISample] {
        var random = SeededGenerator(seed: seed)
        let walls = FloorWalls(wallSegments, attenuation: 6)
        var samples: [RSSISample] = []
        var t = 0.0
        for (a, b) in zip(route, route.dropFirst()) {
            let steps = Int((a.distance(to: b) * 10).rounded(.up))
            for k in 0..<steps {
                let f = Double(k) / Double(steps)
                let p = Point2D(x: a.x + f * (b.x - a.x), y: a.y + f * (b.y - a.y))
                let i = Int((t * 10).rounded()) % 5
                for j in [i, i + 5] where j < beaconPoints.count {
                    let q = beaconPoints[j]
                    let d = ((p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y) + 1.3 * 1.3).squareRoot()
                    let rssi = -59 - 20 * log10(d) - walls.loss(q.x, q.y, p.x, p.y) + random.gaussian(sigma: 3)
                    samples.append(RSSISample(timestamp: t, identity: identity(j), rssi: rssi.rounded()))
                }
                t += 0.1
            }
        }
        return samples
    }

    /// Consecutive tracked reports whose straight step crosses one of the walls, over seeds 1–3.
    static func stepsThroughWalls(
        _ configuration: PositioningEngine.Configuration
    ) throws -> (crossed: [Int], east: Bool) {
        let plan = try Self.plan(walls: Self.wallSegments)
        let walls = FloorWalls(Self.wallSegments, attenuation: 6)
        var crossed: [Int] = [], east = true
        for seed in 1...3 as ClosedRange<UInt64> {
            var engine = try PositioningEngine(plan: plan, configuration: configuration)
            var reports: [PositionReport] = []
            for sample in Self.samples(seed: seed) {
                engine.push(sample)
                reports += engine.pull()
            }
            reports += engine.finish()
            let tracked = reports.filter { $0.source == .tracked }
            #expect(tracked.count > 30)
            crossed.append(
                zip(tracked, tracked.dropFirst()).filter {
                    walls.crossings($0.position.x, $0.position.y, $1.position.x, $1.position.y) > 0
                }.count)
            east = east && tracked.contains { $0.position.x > 12 }
        }
        return (crossed, east)
    }

    @Test(
        "by default a tracked step crosses a wall only where the track restarts, and the walk still reaches the east room"
    )
    func noStepThroughWalls() throws {
        let held = try Self.stepsThroughWalls(PositioningEngine.Configuration())
        // A restart (the tracker's own, after fixes or samples it keeps rejecting) starts again
        // at the epoch's fix, wherever that is: at most one per crossing of the walk.
        #expect(held.crossed.allSatisfy { $0 <= 2 }, "\(held.crossed)")
        #expect(held.east)
        // Let through the walls, the same walks step through them more often (2 against 0).
        var free = PositioningEngine.Configuration()
        free.stopsAtWalls = false
        let through = try Self.stepsThroughWalls(free)
        #expect(through.crossed.reduce(0, +) > held.crossed.reduce(0, +), "\(through.crossed) \(held.crossed)")
    }

    @Test("without walls in the plan, the walls change nothing; with them, a known loss fits the readings better")
    func wallsEnterTheModel() throws {
        let samples = Self.samples(seed: 4)
        let without = try PositioningEngine.locate(samples, plan: Self.plan(walls: []))
        var configuration = PositioningEngine.Configuration()
        configuration.wallAttenuation = 40
        // No walls in the plan: a wall attenuation has nothing to act on.
        let ignored = try PositioningEngine.locate(samples, plan: Self.plan(walls: []), configuration: configuration)
        #expect(ignored.map(\.position) == without.map(\.position))
        // The true 6-dB walls: the engine's fit of the readings is better than without them.
        var engine = try PositioningEngine(
            plan: Self.plan(walls: [
                Wall(from: Point2D(x: 10, y: 0), to: Point2D(x: 10, y: 8), attenuation: 6)
            ]))
        var plain = try PositioningEngine(plan: Self.plan(walls: []))
        for sample in samples {
            _ = engine.push(sample)
            _ = plain.push(sample)
        }
        _ = engine.finish()
        _ = plain.finish()
        func scatter(_ s: PositioningEngine.Statistics) -> Double { s.fitChiSquare / Double(s.fitDegreesOfFreedom) }
        #expect(scatter(engine.statistics) < scatter(plain.statistics))
    }

    /// The walk of three phones (seeds 5–7), each its own device.
    static func threePhones() -> [RSSISample] {
        (5...7 as ClosedRange<UInt64>).flatMap { seed in
            samples(seed: seed).map {
                var s = $0
                s.device = "phone\(seed)"
                return s
            }
        }
    }

    @Test("self-calibration learns a loss for walls the plan leaves without one")
    func learnsTheLoss() throws {
        let samples = Self.threePhones()
        let result = try TrafficCalibration.learn(samples, plan: Self.plan(walls: Self.wallSegments))
        if result.keptRound > 0 {
            let loss = try #require(result.wallAttenuation)
            #expect((0...40).contains(loss))
        } else {
            #expect(result.wallAttenuation == nil)
        }
        // A plan that gives every wall's loss learns none.
        let given = try TrafficCalibration.learn(
            samples,
            plan: Self.plan(walls: [Wall(from: Point2D(x: 10, y: 0), to: Point2D(x: 10, y: 8), attenuation: 6)]))
        #expect(given.wallAttenuation == nil)
    }

    @Test(
        "a learning's configuration() carries its standard errors, place variance, wall loss and offset prior; a set offset stays; the walls' loss moves the positions"
    )
    func learnedConfiguration() throws {
        let samples = Self.threePhones()
        let plan = try Self.plan(walls: Self.wallSegments)
        let result = try TrafficCalibration.learn(samples, plan: plan)
        try #require(result.keptRound > 0)
        let configuration = result.configuration()
        let learned = result.estimates.filter { $0.source == .traffic }
        #expect(!learned.isEmpty && Set(configuration.modelUncertainty.keys) == Set(learned.map(\.beacon)))
        for estimate in learned {
            #expect(
                configuration.modelUncertainty[estimate.beacon]?.measuredPowerSigma
                    == estimate.measuredPowerStandardError)
        }
        #expect(configuration.placeShadowingVariance == (result.placeShadowingVariance ?? 0))
        let loss = try #require(result.wallAttenuation)
        #expect(configuration.wallAttenuation == loss)
        let spread = try #require(result.deviceOffsetSpread)
        #expect(configuration.deviceOffset?.priorSigma == spread.sigma)
        // A device offset the caller set is kept.
        var known = PositioningEngine.Configuration()
        known.deviceOffset = .fixed(2)
        #expect(result.configuration(known).deviceOffset == .fixed(2))
        // The learned loss counts for the wall the plan leaves without one.
        var standard = configuration
        standard.wallAttenuation = nil
        let withLoss = try PositioningEngine.locate(
            samples, plan: plan, calibration: result.models, configuration: configuration)
        let withStandard = try PositioningEngine.locate(
            samples, plan: plan, calibration: result.models, configuration: standard)
        #expect(withLoss.count == withStandard.count && !withLoss.isEmpty)
        #expect(zip(withLoss, withStandard).contains { $0.position != $1.position } == (loss != 5))
    }
}
