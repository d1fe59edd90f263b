import Foundation
import TestSupport
import Testing

@testable import Ranging

@Suite("Path-loss model: distance from RSSI and its bias")
struct PathLossDistanceTests {
    let model = PathLossModel(measuredPower: -59, exponent: 2, sigma: 4)

    @Test("the median inverse undoes expectedRSSI exactly")
    func inverse() {
        for d in [0.05, 0.5, 1, 2.5, 7, 15, 40] {
            let rssi = model.expectedRSSI(atDistance: d)
            #expect(abs(model.medianDistance(forRSSI: rssi) - d) < 1e-12 * d)
        }
        #expect(abs(model.expectedRSSI(atDistance: 10) - (-79)) < 1e-12)
        // dRSSI/dd = −10 n / (d ln 10): check against a central difference.
        let h = 1e-6, d = 3.0
        let numeric = (model.expectedRSSI(atDistance: d + h) - model.expectedRSSI(atDistance: d - h)) / (2 * h)
        #expect(abs(model.rssiSlope(atDistance: d) - numeric) < 1e-6)
    }

    @Test("simulation: median estimate is biased by exp(s²/2), the mean estimate is not")
    func biasBySimulation() {
        var rng = SeededGenerator(seed: 11)
        let d = 5.0, count = 40_000
        let s = model.logDistanceSigma()
        #expect(abs(s - 4 * M_LN10 / 20) < 1e-12)
        var sumMedian = 0.0, sumMean = 0.0, sumSquares = 0.0
        var logs: [Double] = []
        var covered = 0
        for _ in 0..<count {
            let rssi = model.expectedRSSI(atDistance: d) + rng.gaussian(sigma: 4)
            let median = model.medianDistance(forRSSI: rssi)
            let mean = model.meanDistance(forRSSI: rssi)
            sumMedian += median
            sumMean += mean
            sumSquares += (mean - d) * (mean - d)
            logs.append(Foundation.log(median))
            if model.distanceInterval(forRSSI: rssi).contains(d) { covered += 1 }
        }
        // Standard error of a mean of log-normal values: d e^{s²/2} √(e^{s²} − 1) / √count ≈ 0.014 m.
        let standardError =
            d * model.medianBiasFactor() * Foundation.expm1(s * s).squareRoot() / Double(count).squareRoot()
        let meanOfMedian = sumMedian / Double(count)
        let meanOfMean = sumMean / Double(count)
        #expect(abs(meanOfMedian - d * Foundation.exp(s * s / 2)) < 4 * standardError)
        #expect(abs(meanOfMean - d) < 4 * standardError)
        // The bias itself (+0.56 m at 5 m) is far larger than that tolerance: the test can fail.
        #expect(meanOfMedian - d > 30 * standardError)
        logs.sort()
        #expect(abs(Foundation.exp(logs[count / 2]) - d) < 0.05)
        // Spread of the unbiased estimate matches distanceStandardDeviation within 3 %.
        let spread = (sumSquares / Double(count)).squareRoot()
        #expect(abs(spread / model.distanceStandardDeviation(atDistance: d) - 1) < 0.03)
        // The ±1 s interval covers the truth 68.27 % of the time (binomial SE 0.23 %).
        #expect(abs(Double(covered) / Double(count) - 0.6827) < 0.01)
    }

    @Test("averaging m readings shrinks the log spread by √m")
    func averagedReadings() {
        #expect(abs(model.logDistanceSigma(count: 16) * 4 - model.logDistanceSigma()) < 1e-12)
        #expect(model.medianBiasFactor(count: 16) < model.medianBiasFactor())
        let rssi = -75.0
        #expect(model.meanDistance(forRSSI: rssi, count: 1_000_000) < model.medianDistance(forRSSI: rssi))
        #expect(
            abs(model.meanDistance(forRSSI: rssi, count: 1_000_000) / model.medianDistance(forRSSI: rssi) - 1) < 1e-5)
    }

    @Test("results stay finite for non-finite RSSI and invalid models")
    func finiteFallbacks() {
        let range = PathLossModel.distanceRange
        #expect(model.medianDistance(forRSSI: .nan) == range.upperBound)
        #expect(model.medianDistance(forRSSI: -.infinity) == range.upperBound)
        #expect(model.medianDistance(forRSSI: .infinity) == range.lowerBound)
        #expect(model.medianDistance(forRSSI: -400) == range.upperBound)
        let broken = PathLossModel(measuredPower: -59, exponent: 0, sigma: 4)
        for value in [
            broken.medianDistance(forRSSI: -70), broken.meanDistance(forRSSI: -70),
            broken.distanceStandardDeviation(atDistance: 3)
        ] {
            #expect(value.isFinite && range.contains(value))
        }
        #expect(broken.distanceInterval(forRSSI: -70) == range)
    }
}

@Suite("RSSI validation")
struct RSSIReadingTests {
    @Test("platform markers, non-finite, positive and implausible values are refused by reason")
    func rejections() throws {
        #expect(throws: RSSIRejection.noReading(0)) { try RSSIReading(validating: 0) }
        #expect(throws: RSSIRejection.noReading(127)) { try RSSIReading(validating: 127) }
        #expect(throws: RSSIRejection.positive(5)) { try RSSIReading(validating: 5) }
        #expect(throws: RSSIRejection.implausiblyLow(-131)) { try RSSIReading(validating: -131) }
        #expect(throws: RSSIRejection.nonFinite(.infinity)) { try RSSIReading(validating: .infinity) }
        #expect(RSSIReading.rejection(of: .nan).map { if case .nonFinite = $0 { true } else { false } } == true)
        #expect(try RSSIReading(validating: -67.5).dBm == -67.5)
        #expect(try RSSIReading(validating: -130).dBm == -130)
        #expect(RSSIRejection.positive(5).description.contains("positive"))
    }

    @Test("decoding validates too")
    func decoding() throws {
        let good = try JSONDecoder().decode([RSSIReading].self, from: Data("[-70.5]".utf8))
        #expect(good.first?.dBm == -70.5)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([RSSIReading].self, from: Data("[127]".utf8)) }
    }

    @Test(
        "the squared-distance form of the expected RSSI agrees with the distance form, clamp included",
        arguments: [0.0, 1e-6, 0.25, 1, 7.5, 144, 1e6])
    func squaredDistanceForm(squared: Double) {
        let model = PathLossModel(measuredPower: -61.2, exponent: 1.8, sigma: 4)
        let expected = model.expectedRSSI(atDistance: squared.squareRoot())
        #expect(abs(model.expectedRSSI(squaredDistance: squared) - expected) < 1e-9)
    }
}
