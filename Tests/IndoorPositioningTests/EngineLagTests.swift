import Foundation
import TestSupport
import Testing

@testable import IndoorPositioning

/// Fixed-lag smoothing (``PositioningEngine/Configuration/lag``) on simulated walks: reports
/// leave only once the input has passed them by the lag, every epoch is reported once, the
/// accuracy lies between the causal track and the full smoother, and memory stays within the
/// window.
@Suite struct EngineLagTests {
    static func configuration(lag: Double) -> PositioningEngine.Configuration {
        var c = PositioningEngine.Configuration()
        c.lag = lag
        return c
    }

    @Test("lag 3 s: RMSE between the causal track and the full smoother, closer to the smoother")
    func accuracyBetweenCausalAndSmoothed() throws {
        var causal = 0.0, lagged = 0.0, smoothed = 0.0, honesty = 0.0
        let seeds: [UInt64] = [1, 2, 3, 4]
        for seed in seeds {
            let site = try SimulatedSite(seed: seed)
            let tracked = try PositioningEngine.locate(site.samples, plan: site.plan)
            let lag = try PositioningEngine.locate(
                site.samples, plan: site.plan, configuration: Self.configuration(lag: 3))
            let rts = try PositioningEngine.locate(site.samples, plan: site.plan, smooth: true)
            // The same epochs, in the same order.
            #expect(lag.map(\.timestamp) == tracked.map(\.timestamp))
            #expect(lag.allSatisfy { $0.position.x.isFinite && $0.position.y.isFinite && $0.accuracy.isFinite })
            causal += site.rmse(tracked)
            lagged += site.rmse(lag)
            smoothed += site.rmse(rts)
            honesty += site.honesty(lag)
        }
        let n = Double(seeds.count)
        causal /= n
        lagged /= n
        smoothed /= n
        honesty /= n
        print(
            String(
                format: "lag 3 s on simulated walks: causal %.3f m, lag %.3f m, RTS %.3f m, lag honest %.0f %%",
                causal, lagged, smoothed, 100 * honesty))
        // A 3-s window holds most of what the smoother uses (the velocity decorrelates in about
        // 2 s): the lagged track must recover at least half of the smoother's gain.
        #expect(lagged < causal)
        #expect(lagged <= (causal + smoothed) / 2)
        #expect(lagged >= smoothed * 0.97)
        // Where the model holds the smoothed covariance is consistent.
        #expect(honesty >= 0.5 && honesty <= 0.85)
    }

    @Test("a report for time t leaves once the input reached t + lag, and the rest at finish")
    func reportsWaitForTheLag() throws {
        let site = try SimulatedSite(seed: 5, configuration: SimulatedSite.walk(duration: 60))
        let lag = 2.5
        var engine = try PositioningEngine(plan: site.plan, configuration: Self.configuration(lag: lag))
        var reports: [PositionReport] = []
        var largestWindow = (reports: 0, steps: 0)
        for sample in PositioningEngine.inBatchOrder(site.samples) {
            engine.push(sample)
            for report in engine.pull() {
                #expect(report.timestamp <= sample.timestamp - lag + 1e-9)
                reports.append(report)
            }
            for track in engine.devices.tracks {
                largestWindow.reports = max(largestWindow.reports, track.lagWindow.reports)
                largestWindow.steps = max(largestWindow.steps, track.lagWindow.steps)
            }
        }
        let early = reports.count
        reports += engine.finish()
        let causal = try PositioningEngine.locate(site.samples, plan: site.plan)
        #expect(reports.map(\.timestamp) == causal.map(\.timestamp))
        #expect(early > 0 && early < reports.count)
        #expect(reports.filter { $0.source == .tracked }.isEmpty)
        #expect(reports.contains { $0.source == .smoothed })
        // A 1-s epoch and a 2.5-s lag: at most 4 reports wait (the newest epoch and the three
        // before it), and the track keeps the steps from the oldest of them on.
        #expect(largestWindow.reports <= 4, "\(largestWindow)")
        #expect(largestWindow.steps <= 5, "\(largestWindow)")
    }

    @Test("lag needs tracking and a finite, non-negative number of seconds")
    func validation() {
        for bad in [-1, .nan, .infinity, 3601] {
            #expect(throws: PositioningError.self) { try Self.configuration(lag: bad).validate() }
        }
        var raw = Self.configuration(lag: 1)
        raw.tracking = .none
        #expect(throws: PositioningError.self) { try raw.validate() }
        #expect(throws: Never.self) { try Self.configuration(lag: 0).validate() }
    }
}
