import Benchmark
import BenchmarkSupport
import Foundation
import IndoorPositioning
import PositioningIO

// End to end as `indoorpos locate` does it: parse a 1,000,000-sample RSSI CSV held in memory,
// position it (Kalman tracking, 1-s epochs) and write the fixes CSV to a file. The batch is the
// one Scripts/make-large-batch.py describes (a phone walking at 1.1 m/s in a 24 × 16 m room,
// 8 beacons heard at 4 Hz each, 4 dB shadowing), generated in Swift with its own seed.

let uuid = "F7826DA6-4FA2-4E98-8024-BC5B71E0893E"
let anchors: [(Double, Double)] = [(2, 2), (12, 1), (22, 2), (23, 8), (22, 14), (12, 15), (2, 14), (1, 8)]

/// The CSV text of `count` samples.
func batch(count: Int) -> String {
    var generator = XorShiftGenerator(state: 0x2545_F491_4F6C_DD1D)
    var x = 12.0, y = 8.0, heading = 2 * Double.pi * generator.uniform()
    let rate = 32.0
    var text = "timestamp,uuid,major,minor,rssi\n"
    text.reserveCapacity(60 * count)
    for i in 0..<count {
        heading += 0.05 * generator.gaussian()
        x += cos(heading) * 1.1 / rate
        y += sin(heading) * 1.1 / rate
        if !(1 < x && x < 23) {
            heading = Double.pi - heading
            x = min(max(x, 1), 23)
        }
        if !(1 < y && y < 15) {
            heading = -heading
            y = min(max(y, 1), 15)
        }
        let (bx, by) = anchors[i % anchors.count]
        let d = ((x - bx) * (x - bx) + (y - by) * (y - by) + 1.96).squareRoot()
        let rssi = -59 - 20 * log10(d) + 4 * generator.gaussian()
        text += String(format: "%.4f,%@,1,%d,%.1f\n", Double(i + 1) / rate, uuid, i % anchors.count + 1, rssi)
    }
    return text
}

func plan() throws -> FloorPlan {
    let beacons = anchors.enumerated().map { k, anchor in
        Beacon(identity: BeaconIdentity("\(uuid):1:\(k + 1)")!, position: Point3D(x: anchor.0, y: anchor.1, z: 2.6))
    }
    return try FloorPlan(
        name: "large simulated batch",
        defaults: PlanDefaults(measuredPower: -59, pathLossExponent: 2, receiverHeight: 1.2),
        floors: [
            Floor(
                level: 0,
                outline: Polygon([
                    Point2D(x: 0, y: 0), Point2D(x: 24, y: 0),
                    Point2D(x: 24, y: 16), Point2D(x: 0, y: 16)
                ]),
                beacons: beacons)
        ])
}

let benchmarks: @Sendable () -> Void = {
    // One iteration = the whole batch; throughput and wall clock are per sample (scaling
    // factor 10⁶; the table shows allocations per sample too, rounded). The committed threshold
    // is on the allocations of one whole run (about 0.3 per sample, per epoch closed); one
    // allocation per sample would add 1,000,000.
    Benchmark(
        "ParseLocateWrite1MSamples",
        configuration: .init(
            metrics: [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident],
            scalingFactor: .mega, maxDuration: .seconds(30), maxIterations: 5,
            thresholds: [.mallocCountTotal: .init(absolute: [.p90: 5_000])])
    ) { benchmark in
        let text = batch(count: 1_000_000)
        let floorPlan = try plan()
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("pipeline-benchmark.csv").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        benchmark.startMeasurement()
        let reader = try RSSISampleReader(csv: CSVReader(text: text, label: "batch"))
        var engine = try PositioningEngine(plan: floorPlan, configuration: .init(reorderDelay: 1))
        let writer = try ReportWriter(output: try OutputFile(path: output), format: .csv, includeDevice: false)
        while let sample = try reader.next() {
            engine.push(sample)
            engine.drain(writer.write)
        }
        engine.drain(writer.write)
        for report in engine.finish() { writer.write(report) }
        try writer.finish()
        benchmark.stopMeasurement()
        blackHole(writer.count)
    }
}
