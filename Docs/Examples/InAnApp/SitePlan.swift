// A plan built in code (no file), and the solver and tracker configured from it in one call.
import Foundation
import IndoorPositioning

enum SitePlan {
    static let uuid = UUID(uuidString: "F7826DA6-4FA2-4E98-8024-BC5B71E0893E")!

    /// A 20 × 12 m office on level 0: six beacons on the ceiling (2.7 m), two zones, the phone
    /// held at 1.4 m.
    static func make() throws -> FloorPlan {
        let outline = Polygon([Point2D(x: 0, y: 0), Point2D(x: 20, y: 0), Point2D(x: 20, y: 12), Point2D(x: 0, y: 12)])
        let spots = [(2.0, 2.0), (10.0, 1.5), (18.0, 2.0), (2.0, 10.0), (10.0, 10.5), (18.0, 10.0)]
        let beacons = spots.enumerated().map { index, spot in
            Beacon(
                identity: BeaconIdentity(uuid: uuid, major: 1, minor: UInt16(index + 1)),
                position: Point3D(x: spot.0, y: spot.1, z: 2.7))
        }
        let zones = [
            Zone(
                id: "desks",
                polygon: Polygon([
                    Point2D(x: 0, y: 0), Point2D(x: 12, y: 0),
                    Point2D(x: 12, y: 12), Point2D(x: 0, y: 12)
                ])),
            Zone(
                id: "meeting",
                polygon: Polygon([
                    Point2D(x: 12, y: 0), Point2D(x: 20, y: 0),
                    Point2D(x: 20, y: 12), Point2D(x: 12, y: 12)
                ]))
        ]
        return try FloorPlan(
            name: "office",
            defaults: PlanDefaults(
                measuredPower: -59, pathLossExponent: 2,
                receiverHeight: 1.4),
            floors: [Floor(level: 0, outline: outline, zones: zones, beacons: beacons)])
    }

    /// Solver and tracker from the plan in one call, used by hand: one fix, then a tracker
    /// started from it. The engine does the same for every epoch.
    static func solveByHand(_ plan: FloorPlan, samples: [RSSISample]) throws -> (Fix, TrackEstimate) {
        let setup = try PlanConfiguration(plan: plan, level: 0)  // receiver height, outline, elevation
        var perBeacon: [BeaconIdentity: [Double]] = [:]
        for sample in samples { perBeacon[sample.identity, default: []].append(sample.rssi) }
        let observations = perBeacon.keys.sorted().compactMap { identity -> BeaconObservation? in
            guard let beacon = plan.resolvedBeacon(identity), let rssi = perBeacon[identity] else { return nil }
            return BeaconObservation(beacon, meanRSSI: rssi.reduce(0, +) / Double(rssi.count), count: rssi.count)
        }
        var solver = TrilaterationSolver(configuration: setup.solver)
        let fix = try solver.solve(observations)
        let t = samples.last?.timestamp ?? 0
        let tracker = try KalmanTracker(
            first: PositionMeasurement(fix, time: t),
            configuration: setup.tracker, floorElevation: setup.floorElevation)
        return (fix, tracker.estimate)
    }
}
