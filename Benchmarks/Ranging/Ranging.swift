import Benchmark
import BenchmarkSupport
import Foundation
import IndoorPositioning

// The ranging filters, one RSSI sample per call at 10 Hz, and the path-loss calibration of
// 10,000 samples (distances 0.5–15 m, σ = 4 dB).

/// 1,024 readings around −70 dBm.
func readings() -> [Double] {
    var generator = XorShiftGenerator()
    return (0..<1024).map { _ in -70 + 4 * generator.gaussian() }
}

/// The committed threshold: a steady-state loop allocates nothing, but the harness itself
/// allocates about 16–24 times per measured iteration, so 50 are allowed; one allocation in
/// the loop adds 1,000 per iteration (`scalingFactor: .kilo`).
var noAllocations: [BenchmarkMetric: BenchmarkThresholds] { [.mallocCountTotal: .init(absolute: [.p90: 50])] }

/// One iteration is 1,000 samples through `filter`.
func filterBenchmark<Filter: RSSIFilter>(_ name: String, _ make: @escaping @Sendable () -> Filter) {
    Benchmark(
        name,
        configuration: .init(
            metrics: [.wallClock, .throughput, .mallocCountTotal, .instructions], scalingFactor: .kilo,
            maxDuration: .seconds(2), maxIterations: 100_000, thresholds: noAllocations)
    ) { benchmark in
        let values = readings()
        var filter = make()
        var time = 0.0
        // Fill windows first, so the loop measures steady state.
        for value in values {
            _ = try? filter.update(rssi: value, at: time)
            time += 0.1
        }
        benchmark.startMeasurement()
        for iteration in benchmark.scaledIterations {
            blackHole(try? filter.update(rssi: values[iteration & 1023], at: time))
            time += 0.1
        }
        benchmark.stopMeasurement()
    }
}

let benchmarks: @Sendable () -> Void = {
    filterBenchmark("ExponentialFilterSample") { ExponentialFilter() }
    filterBenchmark("WindowedMeanFilterSample") { WindowedMeanFilter() }
    filterBenchmark("RSSIKalmanFilterSample") { RSSIKalmanFilter() }

    do {
        Benchmark(
            "Calibration10000Samples",
            configuration: .init(
                metrics: [.wallClock, .throughput, .mallocCountTotal, .instructions],
                maxDuration: .seconds(2), maxIterations: 10_000, thresholds: noAllocations)
        ) { benchmark in
            var generator = XorShiftGenerator()
            let truth = PathLossModel(measuredPower: -59, exponent: 2.2, sigma: 4)
            let samples = (0..<10_000).map { _ in
                let distance = 0.5 + 14.5 * generator.uniform()
                return CalibrationSample(
                    distance: distance,
                    rssi: truth.expectedRSSI(atDistance: distance) + 4 * generator.gaussian())
            }
            let calibration = PathLossCalibration(method: .leastSquares)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(try calibration.fit(samples).model.exponent)
            }
            benchmark.stopMeasurement()
        }
    }
}
