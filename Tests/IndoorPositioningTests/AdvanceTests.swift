import Foundation
import IndoorPositioning
import TestSupport
import Testing

@Suite("Advancing the clock, and finishing")
struct AdvanceTests {
    static let walk = SimulatedSite.walk(duration: 45)

    static func stream(_ samples: [RSSISample], into engine: inout PositioningEngine) -> [PositionReport] {
        var reports: [PositionReport] = []
        for sample in samples.sorted(by: { $0.timestamp < $1.timestamp }) {
            engine.push(sample)
            reports += engine.pull()
        }
        return reports
    }

    @Test("samples stopping at t: advance(to: t + 5) gives five predictions whose uncertainty grows")
    func fivePredictions() throws {
        let site = try SimulatedSite(seed: 12, configuration: Self.walk)
        let t0 = site.samples.map(\.timestamp).min()!
        let t = t0 + 30  // an epoch boundary: the last epoch with samples ends at t
        var engine = try PositioningEngine(plan: site.plan)
        let tracked = Self.stream(site.samples.filter { $0.timestamp < t }, into: &engine)
        engine.advance(to: t + 5)
        let reports = engine.pull()
        #expect(reports.count == 6)
        let last = try #require(reports.first)
        #expect(last.source == .tracked && abs(last.timestamp - t) < 1e-9)
        let predicted = Array(reports.dropFirst())
        #expect(predicted.count == 5)
        for (k, report) in predicted.enumerated() {
            #expect(report.isPredicted && report.beaconCount == 0 && report.velocity != nil)
            #expect(abs(report.timestamp - (t + Double(k + 1))) < 1e-9)
            #expect(report.accuracy.isFinite && report.position.x.isFinite)
        }
        let accuracies = [last.accuracy] + predicted.map(\.accuracy)
        #expect(zip(accuracies, accuracies.dropFirst()).allSatisfy { $0 < $1 }, "\(accuracies)")
        // The truth stays inside a generous 3-sigma radius of the predictions.
        for report in predicted {
            #expect(
                site.error(of: report) <= 3 * report.accuracy,
                "error \(site.error(of: report)) m, accuracy \(report.accuracy) m")
        }
        #expect(engine.statistics.reports == tracked.count + reports.count)
        // Advancing again to the same time reports nothing new.
        engine.advance(to: t + 5)
        #expect(engine.pull().isEmpty)
    }

    @Test("advancing through a gap adds predictions only; the tracked reports are exactly those without it")
    func gapLeavesTrackUnchanged() throws {
        let site = try SimulatedSite(seed: 13, configuration: Self.walk)
        let t0 = site.samples.map(\.timestamp).min()!
        let samples = site.samples.filter { !($0.timestamp >= t0 + 20 && $0.timestamp < t0 + 26) }
            .sorted { $0.timestamp < $1.timestamp }
        var plain = try PositioningEngine(plan: site.plan)
        let expected = Self.stream(samples, into: &plain) + plain.finish()

        var engine = try PositioningEngine(plan: site.plan)
        var reports: [PositionReport] = []
        var clock = t0
        for sample in samples {
            while clock + 1 <= sample.timestamp {  // a one-second timer on the samples' clock
                clock += 1
                engine.advance(to: clock)
                reports += engine.pull()
            }
            engine.push(sample)
            reports += engine.pull()
        }
        reports += engine.finish()
        #expect(reports.filter { !$0.isPredicted } == expected)
        let predicted = reports.filter(\.isPredicted)
        #expect(predicted.map { ($0.timestamp - t0).rounded() } == [21, 22, 23, 24, 25, 26])
        #expect(reports.map(\.timestamp) == reports.map(\.timestamp).sorted())
    }

    @Test("advancing to a far or non-finite time is quick and bounded; later samples are late")
    func farFuture() throws {
        let site = try SimulatedSite(seed: 14, configuration: Self.walk)
        var engine = try PositioningEngine(plan: site.plan)
        _ = Self.stream(site.samples, into: &engine)
        let lastTime = site.samples.map(\.timestamp).max()!
        engine.advance(to: .nan)
        engine.advance(to: .infinity)
        #expect(engine.pull().isEmpty)
        engine.advance(to: 1e300)
        let reports = engine.pull()
        // One report for the epoch with samples, then predictions until the covariance cap.
        #expect(reports.count >= 2 && reports.count < 200)
        #expect(reports.allSatisfy { $0.accuracy.isFinite && $0.position.x.isFinite && $0.position.y.isFinite })
        let cap = TrackerConfiguration().maximumPositionVariance
        let lastPredicted = try #require(reports.last)
        #expect(lastPredicted.isPredicted && lastPredicted.covariance.xx >= cap - 1e-9)
        #expect(
            engine.push(RSSISample(timestamp: lastTime + 1, identity: SimulatedSite.identity(0), rssi: -60)) == .late)
    }

    @Test("a one-second timer and one far advance give the same predictions, ending at the covariance cap")
    func timerStopsAtCap() throws {
        let site = try SimulatedSite(seed: 17, configuration: Self.walk)
        let t0 = site.samples.map(\.timestamp).min()!
        let samples = site.samples.filter { $0.timestamp < t0 + 20 }
        var once = try PositioningEngine(plan: site.plan)
        _ = Self.stream(samples, into: &once)
        once.advance(to: t0 + 200)
        let far = once.pull()
        var ticking = try PositioningEngine(plan: site.plan)
        _ = Self.stream(samples, into: &ticking)
        var ticked: [PositionReport] = []
        for second in 20...200 {
            ticking.advance(to: t0 + Double(second))
            ticked += ticking.pull()
        }
        #expect(ticked == far)
        let predicted = far.filter(\.isPredicted)
        #expect(predicted.count >= 5 && predicted.count < 180)
        let cap = TrackerConfiguration().maximumPositionVariance
        #expect(predicted.last!.covariance.xx >= cap - 1e-6 || predicted.last!.covariance.yy >= cap - 1e-6)
        #expect(predicted.dropLast().allSatisfy { $0.covariance.xx < cap && $0.covariance.yy < cap })
    }

    @Test("raw fixes are never predicted")
    func rawFixesNotPredicted() throws {
        let site = try SimulatedSite(seed: 15, configuration: Self.walk)
        var raw = PositioningEngine.Configuration()
        raw.tracking = .none
        var engine = try PositioningEngine(plan: site.plan, configuration: raw)
        let streamed = Self.stream(site.samples, into: &engine)
        engine.advance(to: site.samples.map(\.timestamp).max()! + 10)
        let closed = engine.pull()
        #expect(closed.count == 1 && closed[0].source == .fix)
        #expect(
            streamed.count + closed.count
                == (try PositioningEngine.locate(site.samples, plan: site.plan, configuration: raw)).count)
    }

    @Test(
        "finish() stamps every report at its epoch's end, never later; a push after finish never reports an epoch twice",
        arguments: [0.0, 0.5])
    func finishStamps(reorderDelay: Double) throws {
        let site = try SimulatedSite(seed: 16, configuration: Self.walk)
        let t0 = site.samples.map(\.timestamp).min()!
        let lastTime = site.samples.map(\.timestamp).max()!
        var engine = try PositioningEngine(plan: site.plan, configuration: .init(reorderDelay: reorderDelay))
        var reports = Self.stream(site.samples, into: &engine)
        let finished = engine.finish()
        #expect(!finished.isEmpty)
        reports += finished
        for report in reports {
            let k = (report.timestamp - t0).rounded()
            #expect(abs(report.timestamp - t0 - k) < 1e-9)  // an epoch end
            // The epoch [end − 1, end) it stands for had samples: the stamp is not past its epoch.
            #expect(site.samples.contains { $0.timestamp >= report.timestamp - 1 && $0.timestamp < report.timestamp })
        }
        let last = try #require(finished.last)
        #expect(last.timestamp > lastTime && last.timestamp <= lastTime + 1)

        // Pushing into the epoch finish() closed is late; a later sample continues the track.
        let id = SimulatedSite.identity(0)
        #expect(engine.push(RSSISample(timestamp: last.timestamp - 0.1, identity: id, rssi: -60)) == .late)
        var more = site.samples.filter { $0.timestamp >= lastTime - 3 }.map {
            RSSISample(timestamp: $0.timestamp + 5, identity: $0.identity, rssi: $0.rssi)
        }
        more.sort { $0.timestamp < $1.timestamp }
        let again = Self.stream(more, into: &engine) + engine.finish()
        #expect(!again.isEmpty)
        #expect(again.allSatisfy { $0.timestamp > last.timestamp && $0.source == .tracked })
    }
}
