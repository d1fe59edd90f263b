import BeaconModel
import Foundation
import TestSupport
import Testing

@testable import Ranging

@Suite("Path-loss calibration")
struct CalibrationTests {
    let truth = PathLossModel(measuredPower: -59, exponent: 2.2, sigma: 4)

    func meets(_ result: CalibrationResult) -> Bool {
        abs(result.model.measuredPower - truth.measuredPower) <= 0.5
            && abs(result.model.exponent - truth.exponent) <= 0.05
    }

    @Test("2000 samples, σ = 4 dB, 0.5–15 m: P₀ within 0.5 dB, n within 0.05, every method")
    func cleanSamples() throws {
        let samples = Simulation.samples(model: truth, count: 2000, seed: 1)
        for method in [CalibrationMethod.leastSquares, .huber, .robust, .trimmed(fraction: 0.1)] {
            let result = try PathLossCalibration(method: method).fit(samples)
            #expect(meets(result), "\(method): P₀ \(result.model.measuredPower), n \(result.model.exponent)")
            #expect(abs(result.model.sigma - 4) < 0.4, "\(method): σ \(result.model.sigma)")
            #expect(result.count == 2000)
        }
        let plain = try PathLossCalibration().fit(samples)
        // Least-squares standard errors: σ/√m/sd(10 log₁₀ d) ≈ 4/44.7/4.3 ≈ 0.021 for n.
        #expect(plain.exponentStandardError > 0.015 && plain.exponentStandardError < 0.03)
        #expect(plain.measuredPowerStandardError > 0.08 && plain.measuredPowerStandardError < 0.25)
        #expect(plain.inlierCount == 2000)
        #expect(plain.distanceSpan.lowerBound >= 0.5 && plain.distanceSpan.upperBound <= 15)
    }

    @Test("10 % gross outliers ruin least squares; bisquare and trimmed still meet the bound")
    func grossOutliers() throws {
        let samples = Simulation.samples(model: truth, count: 2000, outlierShare: 0.1, seed: 2)
        let plain = try PathLossCalibration().fit(samples)
        #expect(!meets(plain), "least squares unexpectedly met the bound: P₀ \(plain.model.measuredPower)")
        #expect(plain.model.measuredPower < truth.measuredPower - 1.5)  // pulled down by ≈ 2.7 dB
        #expect(plain.model.sigma > 7)  // σ inflated
        for method in [CalibrationMethod.robust, .trimmed(fraction: 0.15)] {
            let result = try PathLossCalibration(method: method).fit(samples)
            #expect(meets(result), "\(method): P₀ \(result.model.measuredPower), n \(result.model.exponent)")
            #expect(abs(result.model.sigma - 4) < 0.9, "\(method): σ \(result.model.sigma)")
            #expect(result.inlierCount < 1900 && result.inlierCount > 1650)
        }
        // Huber bounds the damage but one-sided outliers still bias it by ≈ ε k σ.
        let huber = try PathLossCalibration(method: .huber).fit(samples)
        #expect(
            abs(huber.model.measuredPower - truth.measuredPower) < abs(plain.model.measuredPower - truth.measuredPower)
                / 2)
    }

    @Test(
        "standard errors are honest: 95 % intervals cover the truth about 95 % of the time",
        arguments: [
            CalibrationMethod.leastSquares, .robust
        ])
    func coverage(method: CalibrationMethod) throws {
        let trials = 60
        var coveredP0 = 0, coveredN = 0
        for seed in 0..<UInt64(trials) {
            let samples = Simulation.samples(model: truth, count: 300, range: 0.5...10, seed: 100 + seed)
            let result = try PathLossCalibration(method: method).fit(samples)
            if abs(result.model.measuredPower - truth.measuredPower) < 1.96 * result.measuredPowerStandardError {
                coveredP0 += 1
            }
            if abs(result.model.exponent - truth.exponent) < 1.96 * result.exponentStandardError { coveredN += 1 }
            #expect(result.correlation > -1 && result.correlation < 1)
        }
        // Binomial SD at 60 trials is 2.8 %: require 85 % (an SE off by a factor 1.5 gives ≈ 68 %).
        #expect(coveredP0 >= 51, "P₀ covered \(coveredP0)/\(trials)")
        #expect(coveredN >= 51, "n covered \(coveredN)/\(trials)")
    }

    @Test("bad input is a typed error, never a fit")
    func badInput() {
        let fitter = PathLossCalibration()
        #expect(throws: CalibrationError.noSamples) { try fitter.fit([]) }
        #expect(throws: CalibrationError.mismatchedCounts(distances: 3, rssi: 2)) {
            try fitter.fit(distances: [1, 2, 3], rssi: [-60, -61])
        }
        #expect(throws: CalibrationError.tooFewDistances(distinct: 1)) {
            try fitter.fit(distances: [2, 2, 2, 2], rssi: [-60, -61, -62, -63])
        }
        #expect(throws: CalibrationError.tooFewSamples(count: 2, required: 3)) {
            try fitter.fit(distances: [1, 2], rssi: [-60, -66])
        }
        #expect(throws: CalibrationError.invalidDistance(index: 1, value: 0)) {
            try fitter.fit(distances: [1, 0, 3], rssi: [-60, -61, -62])
        }
        #expect(throws: CalibrationError.invalidDistance(index: 2, value: -3)) {
            try fitter.fit(distances: [1, 2, -3], rssi: [-60, -61, -62])
        }
        #expect(throws: CalibrationError.invalidRSSI(index: 0, rejection: .noReading(0))) {
            try fitter.fit(distances: [1, 2, 3], rssi: [0, -61, -62])
        }
        #expect(throws: CalibrationError.invalidRSSI(index: 2, rejection: .positive(4))) {
            try fitter.fit(distances: [1, 2, 3], rssi: [-60, -61, 4])
        }
        do {
            _ = try fitter.fit(distances: [1, .nan, 3], rssi: [-60, -61, -62])
            Issue.record("NaN distance was accepted")
        } catch {
            guard case .invalidDistance(1, let v) = error, v.isNaN else {
                Issue.record("wrong error \(error)")
                return
            }
        }
        do {
            _ = try fitter.fit(distances: [1, 2, 3], rssi: [-60, .nan, -62])
            Issue.record("NaN RSSI was accepted")
        } catch {
            guard case .invalidRSSI(1, .nonFinite) = error else {
                Issue.record("wrong error \(error)")
                return
            }
        }
        // RSSI rising with distance: n < 0 is no path-loss law.
        #expect(throws: CalibrationError.implausibleFit(measuredPower: -80, exponent: -1)) {
            try fitter.fit(distances: [1, 10, 100], rssi: [-80, -70, -60])
        }
        #expect(throws: CalibrationError.distancesTooClose(minimum: 1, maximum: 1 + 1e-15)) {
            try fitter.fit(distances: [1, 1 + 1e-15, 1], rssi: [-60, -61, -62])
        }
        #expect(throws: CalibrationError.invalidMethod(.trimmed(fraction: 0.6))) {
            try PathLossCalibration(method: .trimmed(fraction: 0.6)).fit(distances: [1, 2, 3], rssi: [-60, -61, -62])
        }
        #expect(CalibrationError.tooFewDistances(distinct: 1).description.contains("at least two distances"))
    }

    @Test("per-beacon fits recover each beacon's model; an unfittable beacon is reported, not fatal")
    func perBeacon() throws {
        let uuid = UUID(uuidString: "F7826DA6-4FA2-4E98-8024-BC5B71E0893E")!
        let a = BeaconIdentity(uuid: uuid, major: 1, minor: 1)
        let b = BeaconIdentity(uuid: uuid, major: 1, minor: 2)
        let c = BeaconIdentity(uuid: uuid, major: 1, minor: 3)
        let modelA = PathLossModel(measuredPower: -55, exponent: 1.6, sigma: 3)
        let modelB = PathLossModel(measuredPower: -65, exponent: 2.6, sigma: 3)
        var samples = Simulation.samples(model: modelA, count: 1500, seed: 5).map {
            CalibrationSample(distance: $0.distance, rssi: $0.rssi, beacon: a)
        }
        samples += Simulation.samples(model: modelB, count: 1500, seed: 6).map {
            CalibrationSample(distance: $0.distance, rssi: $0.rssi, beacon: b)
        }
        samples += [
            CalibrationSample(distance: 2, rssi: -70, beacon: c), CalibrationSample(distance: 2, rssi: -71, beacon: c),
            CalibrationSample(distance: 2, rssi: -69, beacon: c)
        ]
        let report = try PathLossCalibration(method: .robust).fitPerBeacon(samples)
        #expect(report.beacons.map(\.beacon) == [a, b])
        #expect(
            report.failures == [BeaconCalibrationFailure(beacon: c, count: 3, error: .tooFewDistances(distinct: 1))])
        for (fit, model) in zip(report.beacons, [modelA, modelB]) {
            #expect(abs(fit.result.model.measuredPower - model.measuredPower) < 0.5)
            #expect(abs(fit.result.model.exponent - model.exponent) < 0.05)
            #expect(fit.result.count == 1500)
        }
        #expect(report.all.count == 3003)
        // The global fit mixes two different beacons: its σ is well above either beacon's 3 dB.
        #expect(report.all.model.sigma > 4)
    }
}
