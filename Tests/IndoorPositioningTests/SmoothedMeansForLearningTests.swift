import Foundation
import TestSupport
import Testing

@testable import IndoorPositioning

/// The smoother's means near an outer wall: reported inside the outline, and given to learning
/// from the traffic as the smoother gives them (a mean moved onto the outline biases the
/// distances the models are fitted to). A phone walks along the south wall of a 12 × 8 m room, 0.3 m
/// from it, and back, with 6 dB of seeded shadowing.
@Suite("Smoothed means: kept inside for reports, as smoothed for learning")
struct SmoothedMeansForLearningTests {
    static let uuid = UUID(uuidString: "F7826DA6-4FA2-4E98-8024-BC5B71E0893E")!
    static let beaconPoints = [
        Point2D(x: 0.5, y: 0.5), Point2D(x: 11.5, y: 0.5), Point2D(x: 11.5, y: 7.5), Point2D(x: 0.5, y: 7.5),
        Point2D(x: 6, y: 4)
    ]

    static func plan() throws -> FloorPlan {
        let outline = Polygon([Point2D(x: 0, y: 0), Point2D(x: 12, y: 0), Point2D(x: 12, y: 8), Point2D(x: 0, y: 8)])
        return try FloorPlan(
            name: "one room",
            floors: [
                Floor(
                    level: 0, outline: outline,
                    beacons: beaconPoints.enumerated().map {
                        Beacon(
                            identity: BeaconIdentity(uuid: uuid, major: 1, minor: UInt16($0.offset + 1)),
                            position: Point3D(x: $0.element.x, y: $0.element.y, z: 2.5))
                    })
            ])
    }

    /// Every beacon twice a second while the phone walks x 1 → 11 → 1 at y = 0.3, 1 m/s.
    static func samples(seed: UInt64) -> [RSSISample] {
        var random = SeededGenerator(seed: seed)
        var samples: [RSSISample] = []
        for step in 0...40 {
            let t = Double(step) * 0.5
            let x = t <= 10 ? 1 + t : 21 - t
            for (j, b) in beaconPoints.enumerated() {
                let d = ((x - b.x) * (x - b.x) + (0.3 - b.y) * (0.3 - b.y) + 1.3 * 1.3).squareRoot()
                let rssi = -59 - 20 * log10(d) + random.gaussian(sigma: 6)
                samples.append(
                    RSSISample(
                        timestamp: t, identity: BeaconIdentity(uuid: uuid, major: 1, minor: UInt16(j + 1)),
                        rssi: rssi.rounded()))
            }
        }
        return samples
    }

    @Test(
        "reports keep the smoothed means inside the outline; the learning's locating gives them as smoothed, some beyond the wall"
    )
    func meansForLearning() throws {
        let plan = try Self.plan()
        let outline = try #require(plan.floors[0].outline)
        var configuration = PositioningEngine.Configuration()
        configuration.recordsHistory = true
        var beyond = 0
        for seed in 1...5 as ClosedRange<UInt64> {
            let samples = Self.samples(seed: seed)
            let reported = try PositioningEngine.locate(samples, plan: plan, configuration: configuration, smooth: true)
            #expect(reported.allSatisfy { outline.contains($0.position.planar) })
            let calibrator = SiteCalibrator(
                beacons: plan.floors.flatMap(\.beacons).compactMap { plan.resolvedBeacon($0.identity) },
                calibration: [:], settings: .init())
            let site = TrafficCalibration.Site(
                plan: plan, calibrator: calibrator, configuration: configuration, settings: .init(),
                samples: PositioningEngine.inBatchOrder(samples))
            let learning = try site.locate(site.samples, models: [:])
            #expect(learning.count == reported.count)
            for (mean, report) in zip(learning, reported) {
                #expect(mean.timestamp == report.timestamp)
                if outline.contains(mean.position.planar) {
                    #expect(mean.position == report.position)
                } else {
                    beyond += 1
                }
            }
        }
        // The smoother does leave the room near its wall, so the two differ where it matters.
        #expect(beyond > 0)
    }
}
