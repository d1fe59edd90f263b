import Foundation
import TestSupport
import Testing

@testable import IndoorPositioning

/// Learning path-loss models from unlabeled traffic on simulated sites whose beacons differ
/// from the plan's generic values, as real sites do.
@Suite("Traffic calibration: a site learns its beacons from unlabeled RSSI")
struct TrafficCalibrationTests {
    /// The true per-beacon models: P₀ up to ±6 dB off the plan's −59 dBm, n from 1.6 to 2.6.
    static let truth: [PathLossModel] = [
        (-53.0, 2.6), (-65.0, 1.6), (-57.0, 2.2), (-62.0, 1.8), (-55.5, 2.4), (-60.0, 2.0), (-64.0, 1.7), (-56.0, 2.5)
    ].map { PathLossModel(measuredPower: $0.0, exponent: $0.1, sigma: 4) }
    /// Five phones, each reading this many dB high.
    static let offsets = [-8.0, -3.0, 1.0, 4.5, 8.0]

    /// Five 10-minute walks (one per phone, 1 sample per beacon and second), as one batch.
    static func traffic(
        models: [PathLossModel]?, offsets: [Double], duration: Double = 600
    )
        throws -> (plan: FloorPlan, sites: [SimulatedSite], samples: [RSSISample])
    {
        var sites: [SimulatedSite] = []
        var samples: [RSSISample] = []
        for (phone, offset) in offsets.enumerated() {
            var c = SimulatedSite.walk(duration: duration)
            c.sampleRate = 1
            c.beaconModels = models
            c.deviceOffset = offset
            let site = try SimulatedSite(seed: 40 + UInt64(phone), configuration: c, device: "phone-\(phone)")
            sites.append(site)
            samples += site.samples
        }
        return (sites[0].plan, sites, samples)
    }

    /// Pooled RMSE of every phone's causal track after 30 s.
    static func rmse(_ sites: [SimulatedSite], models: [BeaconIdentity: PathLossModel]) throws -> Double {
        var sum = 0.0, count = 0
        for site in sites {
            let reports = try PositioningEngine.locate(site.samples, plan: site.plan, calibration: models)
            let errors = reports.filter { $0.timestamp >= 30 }.map { site.error(of: $0) }
            sum += errors.map { $0 * $0 }.reduce(0, +)
            count += errors.count
        }
        return (sum / Double(max(count, 1))).squareRoot()
    }

    static func trueModels(_ plan: FloorPlan) -> [BeaconIdentity: PathLossModel] {
        Dictionary(uniqueKeysWithValues: truth.indices.map { (SimulatedSite.identity($0), truth[$0]) })
    }

    @Test(
        "8 beacons off by up to ±6 dB and n 1.6–2.6, 5 phones within ±8 dB, 10 minutes: RMSE within 10 % of the true models', values within 3 dB (gauge removed) and 0.7"
    )
    func simulatedSite() throws {
        let (plan, sites, samples) = try Self.traffic(models: Self.truth, offsets: Self.offsets)
        // Four cross-validation folds instead of eight halve the cost of this 24,000-sample test.
        let result = try TrafficCalibration.learn(samples, plan: plan, settings: .init(heldOutFolds: 4))
        #expect(result.estimates.allSatisfy { $0.source == .traffic })
        // The gauge: a common P₀ shift is the devices' mean offset; remove it before comparing.
        let shift =
            zip(result.estimates, Self.truth).map { $0.model.measuredPower - $1.measuredPower }.reduce(0, +)
            / Double(Self.truth.count)
        var worst = (power: 0.0, exponent: 0.0)
        for (estimate, truth) in zip(result.estimates, Self.truth) {
            print(
                String(
                    format: "beacon %@: P0 %.2f (true %.2f, gauge-free error %+.2f), n %.3f (true %.2f)",
                    estimate.beacon.description, estimate.model.measuredPower, truth.measuredPower,
                    estimate.model.measuredPower - shift - truth.measuredPower, estimate.model.exponent, truth.exponent)
            )
            worst.power = max(worst.power, abs(estimate.model.measuredPower - shift - truth.measuredPower))
            worst.exponent = max(worst.exponent, abs(estimate.model.exponent - truth.exponent))
            // Within the prior's 3σ, and each nearer the truth than the plan's values were.
            #expect(abs(estimate.exponentShiftInPriorSigmas) <= 3)
        }
        // P₀ and n are learned as a pair that fits the distances the traffic covers: positions
        // located with a beacon's own readings steepen its slope (measured here: n up to about
        // 0.6 high, P₀ up to 2.5 dB, along their posterior correlation), while the range the pair
        // predicts is right, which is what positioning needs (the RMSE below).
        print(String(format: "worst gauge-free P0 error %.2f dB, worst n error %.3f", worst.power, worst.exponent))
        #expect(worst.power <= 3)
        #expect(worst.exponent <= 0.7)
        let learned = try Self.rmse(sites, models: result.models)
        let given = try Self.rmse(sites, models: Self.trueModels(plan))
        let generic = try Self.rmse(sites, models: [:])
        print(
            String(
                format:
                    "simulated site: RMSE %.3f m learned (%d rounds, kept %d), %.3f m true models, %.3f m plan values; common shift %.2f dB",
                learned, result.rounds.count, result.keptRound, given, generic, shift))
        #expect(learned <= 1.10 * given)
        #expect(learned < generic)
        // The phones' offsets spread by 6.26 dB (their sample standard deviation); 600 samples
        // each leave their means 0.2 dB uncertain, and the positions they are taken at add a little.
        let spread = try #require(result.deviceOffsetSpread)
        #expect(spread.devices == 5)
        #expect(abs(spread.estimate - 6.26) < 0.6, "τ̂ \(spread.estimate) dB")
        // Five devices: the prior is widened by the standard error of their variance.
        #expect(spread.sigma > spread.estimate + 1)
    }

    @Test("never harmful: on a site whose plan is exact, learning changes RMSE by at most +3 %")
    func exactPlan() throws {
        let (plan, sites, samples) = try Self.traffic(models: nil, offsets: [0, 0])
        let result = try TrafficCalibration.learn(samples, plan: plan)
        let learned = try Self.rmse(sites, models: result.models)
        let plain = try Self.rmse(sites, models: [:])
        print(
            String(
                format: "exact plan: RMSE %.3f m learned (kept round %d), %.3f m plan values", learned,
                result.keptRound, plain))
        #expect(learned <= 1.03 * plain)
        for estimate in result.estimates where estimate.source == .traffic {
            #expect(abs(estimate.model.exponent - 2) < 3 * estimate.prior.exponentSigma)
        }
    }

    @Test(
        "stability: more rounds never make RMSE more than 2 % worse than the best round so far, and n stays within the prior's 3σ"
    )
    func stability() throws {
        let (plan, sites, samples) = try Self.traffic(models: Self.truth, offsets: [-4, 0, 4], duration: 300)
        var settings = TrafficCalibration.Settings(maximumRounds: 6, tolerance: 0)
        settings.patience = 6
        let result = try TrafficCalibration.learn(samples, plan: plan, settings: settings)
        #expect(result.rounds.count == 6)
        // What a round limit of k would have kept: the best-scoring round up to k.
        var figures: [Double] = []
        var kept: (score: Double, models: [BeaconIdentity: PathLossModel]) = (result.startScore, [:])
        for round in result.rounds {
            for estimate in round.estimates where estimate.source == .traffic {
                #expect(abs(estimate.exponentShiftInPriorSigmas) <= 3)
            }
            if round.score > kept.score + settings.minimumScoreGain {
                kept = (
                    round.score,
                    Dictionary(
                        uniqueKeysWithValues: round.estimates.filter { $0.source == .traffic }
                            .map { ($0.beacon, $0.model) })
                )
            }
            figures.append(try Self.rmse(sites, models: kept.models))
        }
        print("stability: RMSE with a limit of 1 to 6 rounds:", figures.map { String(format: "%.3f", $0) })
        for k in figures.indices { #expect(figures[k] <= 1.02 * figures[...k].min()!) }
    }

    @Test("a beacon heard fewer times than the minimum keeps the plan's values and is reported so")
    func rarelyHeard() throws {
        let (plan, _, all) = try Self.traffic(models: Self.truth, offsets: [0], duration: 300)
        let rare = SimulatedSite.identity(3)
        var kept = 0
        let samples = all.filter {
            $0.identity != rare
                || {
                    kept += 1
                    return kept <= 10
                }()
        }
        let result = try TrafficCalibration.learn(samples, plan: plan)
        let estimate = try #require(result.estimates.first { $0.beacon == rare })
        #expect(estimate.source == .plan)
        #expect(estimate.model.measuredPower == -59 && estimate.model.exponent == 2)
        #expect(result.models[rare] == nil)
        #expect(result.estimates.filter { $0.source == .traffic }.count == 7)
    }

    @Test("untracked settings learn what tracked ones do: the rounds pair samples with smoothed tracks either way")
    func untrackedConfiguration() throws {
        let (plan, _, samples) = try Self.traffic(models: Self.truth, offsets: [0, 4], duration: 60)
        var untracked = PositioningEngine.Configuration()
        untracked.tracking = .none
        let settings = TrafficCalibration.Settings(heldOutFolds: 4)
        let tracked = try TrafficCalibration.learn(samples, plan: plan, settings: settings)
        let raw = try TrafficCalibration.learn(samples, plan: plan, configuration: untracked, settings: settings)
        #expect(tracked.keptRound > 0)
        #expect(raw.models == tracked.models && raw.keptRound == tracked.keptRound)
    }

    @Test("bad input: no samples, or a plan whose beacons are never heard, is one clear error")
    func badInput() throws {
        let (plan, _, _) = try Self.traffic(models: nil, offsets: [0], duration: 30)
        #expect(throws: PositioningError.self) { try TrafficCalibration.learn([], plan: plan) }
        let stranger = BeaconIdentity(uuid: UUID(), major: 7, minor: 7)
        let unheard = (0..<200).map { RSSISample(timestamp: Double($0), identity: stranger, rssi: -60) }
        do {
            _ = try TrafficCalibration.learn(unheard, plan: plan)
            Issue.record("learning from traffic of unknown beacons should fail")
        } catch {
            #expect(error.description.contains("nothing to learn path-loss models from"))
        }
        #expect(throws: PositioningError.self) {
            try TrafficCalibration.learn(unheard, plan: plan, settings: .init(maximumRounds: 0))
        }
    }
}

@Suite("Online learning: the engine learns path-loss models while it positions")
struct OnlineLearningTests {
    @Test(
        "a site with off-plan beacons: later walks are located better than with the plan's values, and the engine stays deterministic"
    )
    func online() throws {
        let (plan, sites, _) = try TrafficCalibrationTests.traffic(
            models: TrafficCalibrationTests.truth,
            offsets: [0, 0, 0, 0], duration: 300)
        // The four walks one after another, as one live feed of one phone each.
        var feed: [RSSISample] = []
        for (walk, site) in sites.enumerated() {
            feed += site.samples.map {
                var s = $0
                s.timestamp += Double(walk) * 400
                return s
            }
        }
        var configuration = PositioningEngine.Configuration()
        configuration.learning = OnlineLearning()
        func run(
            _ configuration: PositioningEngine.Configuration
        ) throws -> (reports: [PositionReport], learned: [LearnedPathLoss]?) {
            var engine = try PositioningEngine(plan: plan, configuration: configuration)
            var reports: [PositionReport] = []
            for sample in feed {
                engine.push(sample)
                reports += engine.pull()
            }
            reports += engine.finish()
            return (reports, engine.learnedModels)
        }
        let learning = try run(configuration)
        let again = try run(configuration)
        let plain = try run(PositioningEngine.Configuration())
        #expect(learning.reports == again.reports)
        let learned = try #require(learning.learned)
        #expect(learned.allSatisfy { $0.source == .traffic && $0.model.exponent.isFinite })
        // The last walk (after 1200 s of input time).
        let last = sites[3]
        func rmse(_ reports: [PositionReport]) -> Double {
            let errors = reports.filter { $0.timestamp >= 1230 && $0.device == last.samples.first?.device }
                .map {
                    last.error(
                        of: PositionReport(
                            timestamp: $0.timestamp - 1200, device: $0.device, position: $0.position,
                            level: $0.level, covariance: $0.covariance, zone: nil,
                            source: $0.source, beaconCount: $0.beaconCount))
                }
            return (errors.map { $0 * $0 }.reduce(0, +) / Double(max(errors.count, 1))).squareRoot()
        }
        print(
            String(
                format: "online: last walk RMSE %.3f m learning, %.3f m plan values", rmse(learning.reports),
                rmse(plain.reports)))
        #expect(rmse(learning.reports) < 0.95 * rmse(plain.reports))
        #expect(
            learning.reports.allSatisfy { $0.position.x.isFinite && $0.position.y.isFinite && $0.accuracy.isFinite })

        // With a lag the learner is taught each tracked epoch's samples once, at the refined
        // position, as the report leaves the lag: at least as many samples pass its accuracy
        // gate (the refined covariance is smaller), and the later walk still gains.
        var lagged = configuration
        lagged.lag = 3
        var plainLagged = PositioningEngine.Configuration()
        plainLagged.lag = 3
        let learningLate = try run(lagged)
        let plainLate = try run(plainLagged)
        #expect(learningLate.reports == (try run(lagged)).reports)
        let taughtLate = try #require(learningLate.learned).map(\.count).reduce(0, +)
        let taught = learned.map(\.count).reduce(0, +)
        print(
            String(
                format:
                    "online with lag 3: last walk RMSE %.3f m learning, %.3f m plan values; %d samples taught (%d causal)",
                rmse(learningLate.reports), rmse(plainLate.reports), taughtLate, taught))
        #expect(taughtLate >= taught)
        #expect(taughtLate <= feed.count)
        #expect(rmse(learningLate.reports) < 0.95 * rmse(plainLate.reports))
    }

    @Test(
        "a saved learner resumes in a new engine: its statistics merge, its models are in use at once; without learning it throws"
    )
    func resume() throws {
        let (plan, sites, _) = try TrafficCalibrationTests.traffic(
            models: TrafficCalibrationTests.truth, offsets: [0, 0], duration: 300)
        var configuration = PositioningEngine.Configuration()
        configuration.learning = OnlineLearning()
        var today = try PositioningEngine(plan: plan, configuration: configuration)
        for sample in sites[0].samples { today.push(sample) }
        _ = today.finish()
        let saved = try JSONDecoder().decode(
            SiteCalibrator.self, from: try JSONEncoder().encode(try #require(today.learner)))
        var tomorrow = try PositioningEngine(plan: plan, configuration: configuration)
        try tomorrow.resumeLearning(from: saved)
        #expect(tomorrow.statistics.learnedModelUpdates == 1)
        let before = try #require(today.learnedModels), after = try #require(tomorrow.learnedModels)
        #expect(after.map(\.count) == before.map(\.count))
        #expect(after.contains { $0.source == .traffic })
        // Each adopted model is in force with its standard errors as its stated uncertainty
        // (the radius considers them); a beacon still at the plan's values states none.
        for (slot, estimate) in after.enumerated() {
            let entry = tomorrow.context.beacons[slot]
            if estimate.source == .traffic {
                let stated = try #require(entry.uncertainty)
                #expect(stated.measuredPowerSigma == estimate.measuredPowerStandardError)
                #expect(stated.exponentSigma == estimate.exponentStandardError)
                #expect(stated.correlation == estimate.correlation)
                #expect(stated.measuredPowerSigma > 0 && stated.exponentSigma > 0)
                #expect(entry.model.exponent == estimate.model.exponent)
            } else {
                #expect(entry.uncertainty == nil)
            }
        }
        // The resumed engine positions the next walk with the learned models from its first
        // epoch, before its own first update (60 s): better than a new learning engine, which
        // starts from the plan's values (the site's beacons are off-plan).
        let firstMinute = sites[1].samples.filter { $0.timestamp < 55 }
        var fresh = try PositioningEngine(plan: plan, configuration: configuration)
        var resumed: [PositionReport] = [], started: [PositionReport] = []
        for sample in firstMinute {
            tomorrow.push(sample)
            resumed += tomorrow.pull()
            fresh.push(sample)
            started += fresh.pull()
        }
        #expect(tomorrow.statistics.learnedModelUpdates == 1 && fresh.statistics.learnedModelUpdates == 0)
        let a = sites[1].rmse(resumed, from: 10), b = sites[1].rmse(started, from: 10)
        print(String(format: "resumed learner: first minute RMSE %.3f m, new learner %.3f m", a, b))
        #expect(resumed.count > 40 && a < 0.95 * b)
        var off = try PositioningEngine(plan: plan)
        #expect(throws: PositioningError.self) { try off.resumeLearning(from: saved) }
    }

    @Test("bad learning settings are one clear configuration error")
    func badSettings() throws {
        let (plan, _, _) = try TrafficCalibrationTests.traffic(models: nil, offsets: [0], duration: 10)
        var configuration = PositioningEngine.Configuration()
        configuration.learning = OnlineLearning(updateInterval: 0)
        #expect(throws: PositioningError.self) { try PositioningEngine(plan: plan, configuration: configuration) }
        configuration.learning = OnlineLearning(maximumAccuracy: .nan)
        #expect(throws: PositioningError.self) { try PositioningEngine(plan: plan, configuration: configuration) }
        // It learns from tracked epochs: without a tracker it would learn nothing, silently.
        configuration.learning = OnlineLearning()
        configuration.tracking = .none
        do {
            _ = try PositioningEngine(plan: plan, configuration: configuration)
            Issue.record("online learning without tracking should be refused")
        } catch {
            #expect(error.description.contains("it needs Kalman tracking"))
        }
    }
}
