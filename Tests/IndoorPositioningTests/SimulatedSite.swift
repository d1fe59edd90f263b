import Foundation
import IndoorPositioning
import TestSupport

/// A simulated walk turned into what the engine consumes: a floor plan with the walk's beacons
/// and the samples as `RSSISample`s.
struct SimulatedSite {
    static let uuid = UUID(uuidString: "F7826DA6-4FA2-4E98-8024-BC5B71E0893E")!

    let walk: WalkSimulator
    let plan: FloorPlan
    let samples: [RSSISample]

    /// `misplaced` puts one beacon's plan position off by an offset (the beacon itself stays
    /// where the walk hears it): a beacon moved after the plan was made.
    init(
        seed: UInt64, configuration: WalkSimulator.Configuration = WalkSimulator.Configuration(),
        shift: Point2D = .zero, device: String? = nil, misplaced: (beacon: Int, offset: Point2D)? = nil
    ) throws {
        walk = WalkSimulator(seed: seed, configuration: configuration)
        let c = walk.configuration
        let beacons = walk.beacons.enumerated().map { index, position in
            let error = misplaced?.beacon == index ? misplaced!.offset : .zero
            return Beacon(
                identity: Self.identity(index),
                position: Point3D(x: position.x + shift.x + error.x, y: position.y + shift.y + error.y, z: position.z))
        }
        let outline = Polygon(
            [
                Point2D(x: 0, y: 0), Point2D(x: c.width, y: 0),
                Point2D(x: c.width, y: c.height), Point2D(x: 0, y: c.height)
            ]
            .map { $0 + shift })
        plan = try FloorPlan(
            name: "simulated",
            defaults: PlanDefaults(
                measuredPower: c.model.measuredPower, pathLossExponent: c.model.exponent,
                receiverHeight: c.receiverHeight),
            floors: [Floor(level: 0, outline: outline, beacons: beacons)])
        samples = walk.samples.map {
            RSSISample(timestamp: $0.time, identity: Self.identity($0.beacon), rssi: $0.rssi, device: device)
        }
    }

    /// Every beacon's model as a survey would have measured it before any beacon moved (the
    /// walk's model): what a calibration file gives the engine.
    var survey: [BeaconIdentity: PathLossModel] {
        Dictionary(uniqueKeysWithValues: walk.beacons.indices.map { (Self.identity($0), walk.configuration.model) })
    }

    /// The default walk, `duration` seconds long.
    static func walk(duration: Double) -> WalkSimulator.Configuration {
        var c = WalkSimulator.Configuration()
        c.duration = duration
        return c
    }

    /// Each beacon's mean RSSI over the samples before `end` (seconds), as the observations of
    /// `plan`'s beacons (sorted by identity).
    func observations(before end: Double, plan: FloorPlan? = nil) -> [BeaconObservation] {
        let plan = plan ?? self.plan
        var sums: [BeaconIdentity: (total: Double, count: Int)] = [:]
        for s in samples where s.timestamp < end {
            sums[s.identity, default: (0, 0)].total += s.rssi
            sums[s.identity, default: (0, 0)].count += 1
        }
        return sums.keys.sorted().compactMap { id in
            guard let beacon = plan.resolvedBeacon(id), let sum = sums[id] else { return nil }
            return BeaconObservation(beacon, meanRSSI: sum.total / Double(sum.count), count: sum.count)
        }
    }

    static func identity(_ index: Int) -> BeaconIdentity {
        BeaconIdentity(uuid: uuid, major: 1, minor: UInt16(index + 1))
    }

    /// Root-mean-square horizontal error of `reports` against the walk, metres (after `from` s).
    func rmse(_ reports: [PositionReport], shift: Point2D = .zero, from: Double = 1) -> Double {
        let errors = reports.filter { $0.timestamp >= from }.map { error(of: $0, shift: shift) }
        return (errors.map { $0 * $0 }.reduce(0, +) / Double(max(errors.count, 1))).squareRoot()
    }

    func error(of report: PositionReport, shift: Point2D = .zero) -> Double {
        report.position.planar.distance(to: walk.position(at: report.timestamp) + shift)
    }

    /// Share of reports whose error is at most their accuracy.
    func honesty(_ reports: [PositionReport]) -> Double {
        Double(reports.filter { error(of: $0) <= $0.accuracy }.count) / Double(max(reports.count, 1))
    }
}
