import BeaconModel
import Foundation
import TestSupport
import Testing

@testable import Monitoring

/// The indexed monitor against the plain scan (``ScanMonitor``) on seeded random region sets
/// (exact and wildcard beacon conditions, circles on two floors, zones, parents, own
/// hysteresis), random inputs (sightings, positions anywhere with any accuracy, advances, equal
/// and jumping times) and random additions, replacements and removals while running: every
/// input must give the same events, and every region the same record.
@Suite("RegionMonitor: index agrees with the plain scan")
struct IndexedMonitorTests {
    static let plan: FloorPlan = {
        let floors = [
            Floor(
                level: 0, zones: [Zone(id: "shop", polygon: CorridorWalk.shop)],
                beacons: CorridorWalk.plan.floors[0].beacons),
            Floor(
                level: 1,
                zones: [
                    Zone(
                        id: "shop",
                        polygon: Polygon([
                            Point2D(x: 40, y: -3), Point2D(x: 70, y: -3),
                            Point2D(x: 70, y: 5), Point2D(x: 40, y: 5)
                        ])),
                    Zone(
                        id: "hall",
                        polygon: Polygon([
                            Point2D(x: 0, y: 0), Point2D(x: 30, y: 0),
                            Point2D(x: 30, y: 4), Point2D(x: 0, y: 4)
                        ]))
                ],
                beacons: [])
        ]
        return try! FloorPlan(name: "two floors", defaults: CorridorWalk.plan.defaults, floors: floors)
    }()

    static let otherUUID = UUID(uuidString: "11111111-2222-3333-4444-555555555555")!

    static func identity(_ rng: inout SeededGenerator) -> BeaconIdentity {
        BeaconIdentity(
            uuid: Bool.random(using: &rng) ? CorridorWalk.uuid : otherUUID,
            major: UInt16.random(in: 1...2, using: &rng), minor: UInt16.random(in: 0...3, using: &rng))
    }

    static func condition(_ rng: inout SeededGenerator) -> MonitorCondition {
        switch Int.random(in: 0..<6, using: &rng) {
        case 0: return .beacon(BeaconCondition(identity(&rng)))
        case 1:
            let i = identity(&rng)
            return .beacon(BeaconCondition(uuid: i.uuid, major: i.major))
        case 2: return .beacon(BeaconCondition(uuid: identity(&rng).uuid))
        case 3: return .zone(Bool.random(using: &rng) ? "shop" : "hall")
        default:
            // Radii for every kind of grid cell: small circles by their centre, larger ones in
            // 2-m to 256-m cells.
            let kind = Int.random(in: 0..<10, using: &rng)
            let radius =
                kind == 0
                ? 500 : kind == 1 ? Double.random(in: 20...80, using: &rng) : Double.random(in: 0.5...8, using: &rng)
            return .circle(
                CircleCondition(
                    center: Point2D(
                        x: Double.random(in: -10...210, using: &rng),
                        y: Double.random(in: -6...10, using: &rng)),
                    radius: radius, level: Int.random(in: 0...1, using: &rng)))
        }
    }

    static func hysteresis(_ rng: inout SeededGenerator) -> Hysteresis? {
        guard Int.random(in: 0..<4, using: &rng) == 0 else { return nil }
        return Hysteresis(
            beacon: .init(
                enterCount: Int.random(in: 1...3, using: &rng), enterWindow: 4,
                enterRSSI: -80, exitRSSI: -90, exitDelay: Double.random(in: 2...20, using: &rng)),
            position: .init(
                enterMargin: 0.2, exitMargin: Double.random(in: 0...3, using: &rng),
                exitDwell: Double.random(in: 0...6, using: &rng),
                accuracyWeight: Double.random(in: 0...1.5, using: &rng), maximumAccuracy: 8))
    }

    @Test("same events and records on random regions, inputs and changes", arguments: Array(UInt64(1)...12))
    func agreesWithScan(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        var indexed = try RegionMonitor(plan: Self.plan)
        var scan = try ScanMonitor(plan: Self.plan)
        var ids: [String] = []
        var next = 0
        func addRandom(_ rng: inout SeededGenerator) throws {
            let replace = !ids.isEmpty && Int.random(in: 0..<5, using: &rng) == 0
            let id = replace ? ids.randomElement(using: &rng)! : "r\(next)"
            if !replace { next += 1 }
            let condition = Self.condition(&rng)
            let state = [MonitorState.unknown, .satisfied, .unsatisfied].randomElement(using: &rng)!
            var parent: String? = nil
            if !ids.isEmpty, Int.random(in: 0..<3, using: &rng) == 0 { parent = ids.randomElement(using: &rng)! }
            let hysteresis = Self.hysteresis(&rng)
            var failedIndexed = false, failedScan = false
            do {
                try indexed.add(condition, identifier: id, assuming: state, parent: parent, hysteresis: hysteresis)
            } catch { failedIndexed = true }
            do {
                try scan.add(condition, identifier: id, assuming: state, parent: parent, hysteresis: hysteresis)
            } catch { failedScan = true }
            #expect(failedIndexed == failedScan)
            if !failedIndexed && !replace { ids.append(id) }
        }
        for _ in 0..<40 { try addRandom(&rng) }
        var time = 0.0
        var eventCount = 0
        for step in 0..<3000 {
            if Int.random(in: 0..<50, using: &rng) != 0 { time += [0, 0.1, 0.25, 1, 7].randomElement(using: &rng)! }
            let a: [MonitorEvent], b: [MonitorEvent]
            switch Int.random(in: 0..<100, using: &rng) {
            case 0..<50:
                let sighting = BeaconSighting(
                    time: time, identity: Self.identity(&rng), rssi: Double.random(in: -100 ... -50, using: &rng))
                a = indexed.observe(sighting)
                b = scan.observe(sighting)
            case 50..<90:
                let walkX = (time * 1.1).truncatingRemainder(dividingBy: 220) - 10
                let observation = PositionObservation(
                    time: time,
                    position: Point2D(
                        x: walkX + Double.random(in: -3...3, using: &rng), y: Double.random(in: -4...8, using: &rng)),
                    level: Int.random(in: 0..<8, using: &rng) == 0 ? 1 : 0,
                    accuracy: [0.3, 1, 2, 4, 6, 12].randomElement(using: &rng)!)
                a = indexed.observe(observation)
                b = scan.observe(observation)
            case 90..<95:
                a = indexed.advance(to: time)
                b = scan.advance(to: time)
            case 95..<98:
                try addRandom(&rng)
                a = []
                b = []
            default:
                if let id = ids.randomElement(using: &rng) {
                    let removed = indexed.remove(id)
                    #expect(removed == scan.remove(id))
                    ids.removeAll { removed.contains($0) }
                }
                a = []
                b = []
            }
            #expect(a == b, "step \(step)")
            eventCount += a.count
            if a != b { break }
        }
        #expect(indexed.identifiers == scan.identifiers)
        for id in scan.identifiers { #expect(indexed.record(for: id) == scan.record(for: id)) }
        #expect(eventCount > 100)
    }
}
