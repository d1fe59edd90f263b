import Benchmark
import BenchmarkSupport
import Foundation
import IndoorPositioning

// Region monitoring as a venue runs it: one monitor set up with N circle regions, copied for each
// phone, each copy fed a 30-s visit (a position and a beacon sighting every second). Circles of
// radius 1–5 m are scattered over a square whose side keeps about one circle per 100 m² (100
// circles on 100 m × 100 m, 100,000 on about 3.2 km × 3.2 km), so a phone is near a few of them;
// each visit walks 1.2 m/s from its own seeded start. The monitors and visits are made before
// measuring; the measured loop copies the template and feeds the inputs.

let uuid = UUID(uuidString: "F7826DA6-4FA2-4E98-8024-BC5B71E0893E")!

/// The side of the square holding `regions` circles at about one per 100 m², metres.
func side(_ regions: Int) -> Double { (Double(regions) * 100).squareRoot() }

/// A monitor of `regions` circles and one beacon condition, every region assumed unsatisfied.
func template(regions: Int) throws -> RegionMonitor {
    var generator = XorShiftGenerator(state: 0x9E37_79B9_7F4A_7C15 ^ UInt64(regions))
    let plan = try FloorPlan(
        name: "venue", defaults: PlanDefaults(measuredPower: -59, pathLossExponent: 2, receiverHeight: 1.2),
        floors: [
            Floor(level: 0, beacons: [Beacon(identity: BeaconIdentity(uuid: uuid, major: 1, minor: 1), position: Point3D(x: 0, y: 0, z: 3))])
        ])
    var monitor = try RegionMonitor(plan: plan)
    let size = side(regions)
    for index in 0..<regions {
        let circle = CircleCondition(
            center: Point2D(x: size * generator.uniform(), y: size * generator.uniform()),
            radius: 1 + 4 * generator.uniform(), level: 0)
        try monitor.add(.circle(circle), identifier: "c\(index)", assuming: .unsatisfied)
    }
    try monitor.add(.beacon(BeaconCondition(uuid: uuid)), identifier: "venue", assuming: .unsatisfied)
    return monitor
}

/// One visit: 30 positions and sightings, one a second, walking from a seeded start.
struct Visit {
    var positions: [PositionObservation]
    var sightings: [BeaconSighting]
}

func visits(count: Int, regions: Int) -> [Visit] {
    var generator = XorShiftGenerator(state: 0x2545_F491_4F6C_DD1D)
    let size = side(regions)
    return (0..<count).map { _ in
        let x = size * generator.uniform(), y = size * generator.uniform()
        let heading = 2 * Double.pi * generator.uniform()
        let positions = (0..<30).map { step in
            PositionObservation(
                time: Double(step), position: Point2D(x: x + 1.2 * Double(step) * cos(heading), y: y + 1.2 * Double(step) * sin(heading)),
                level: 0, accuracy: 1.5 + generator.uniform())
        }
        let sightings = (0..<30).map { step in
            BeaconSighting(time: Double(step) + 0.5, identity: BeaconIdentity(uuid: uuid, major: 1, minor: 1), rssi: -60 - 20 * generator.uniform())
        }
        return Visit(positions: positions, sightings: sightings)
    }
}

/// Copies `template` for each visit and feeds it; returns the number of events.
func replay(_ template: RegionMonitor, _ visits: ArraySlice<Visit>) -> Int {
    var events = 0
    for visit in visits {
        var monitor = template
        for step in 0..<30 {
            events += monitor.observe(visit.positions[step]).count
            events += monitor.observe(visit.sightings[step]).count
        }
    }
    return events
}

/// Allocation counts of one iteration, recorded in Thresholds/: each input returns its events in
/// an array and finds its candidate regions in another, and each copy makes its own small
/// change tables; more than the committed count means something allocates per region or per
/// copy that did not before.
var allocations: [BenchmarkMetric: BenchmarkThresholds] { [.mallocCountTotal: .init(relative: [.p90: 5])] }

let benchmarks: @Sendable () -> Void = {
    for (regions, devices) in [(100, 1), (100_000, 1), (100, 10_000), (100_000, 10_000)] {
        // One iteration: `devices` visits (a new copy each); with one device, 1,000 visits one
        // after another, each on its own copy (scalingFactor .kilo).
        Benchmark(
            "Monitor\(regions)Regions\(devices)Devices",
            configuration: .init(
                metrics: [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident],
                scalingFactor: devices == 1 ? .kilo : .one,
                maxDuration: .seconds(3), maxIterations: devices == 1 ? 1_000 : 20, thresholds: allocations)
        ) { benchmark in
            let monitor = try template(regions: regions)
            let all = visits(count: max(devices, 1_000), regions: regions)
            var events = 0
            var next = 0
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                let count = devices == 1 ? 1 : devices
                let start = next % (all.count - count + 1)
                events += replay(monitor, all[start..<(start + count)])
                next += count
            }
            benchmark.stopMeasurement()
            blackHole(events)
        }
    }
}
