/// Learns each beacon's path-loss model from unlabeled RSSI traffic, in rounds: locate and
/// smooth the batch with the models in force, pair every sample with its smoothed position
/// (`SiteCalibrator` weighs it by how well that position is known), fit the models by
/// robust maximum a posteriori estimation, and locate again with them.
///
/// Every candidate set of models (the starting one included) is scored by held-out-beacon
/// cross-validation: the beacons are split into ``Settings/heldOutFolds`` folds; each fold's
/// samples are predicted from positions located *without* that fold, and the score is the
/// mean robust log-density of those predictions (nats per sample). A model cannot flatter
/// this score by pulling the positions it is judged on, which is how a plain
/// locate-and-refit loop drifts. The learning keeps the best-scoring models (better by more
/// than ``Settings/minimumScoreGain``) and stops after ``Settings/patience`` rounds without a
/// better score, when no learned P₀ or n moved by more than ``Settings/tolerance`` of its
/// standard error, or after ``Settings/maximumRounds`` (see Docs/Guide/Calibration.md).
///
/// ```swift
/// let result = try TrafficCalibration.learn(samples, plan: plan)
/// let models = result.models               // for PositioningEngine(plan:calibration:)
/// for estimate in result.estimates { print(estimate.beacon, estimate.model, estimate.source) }
/// ```
public struct TrafficCalibration: Sendable {
    /// How the rounds run.
    public struct Settings: Sendable, Hashable, Codable {
        /// Upper bound on rounds (default 8).
        public var maximumRounds: Int
        /// Stop after this many rounds in a row without a better cross-validated score
        /// (default 2: one worse round can be noise, as measured on the office walks).
        public var patience: Int
        /// Stop when no learned parameter moved by more than this many of its standard errors
        /// in a round (default 0.5; 0 runs every round).
        public var tolerance: Double
        /// Reweighting passes per round (default 3).
        public var passes: Int
        /// Positions whose accuracy (1-σ radius) is worse than this teach nothing, metres
        /// (default 4).
        public var maximumAccuracy: Double
        /// Prior spread of the devices' offsets around their common mean, dB (default 6).
        public var deviceOffsetSigma: Double
        /// A round's models replace the best so far only when their cross-validated score is
        /// higher by more than this, nats per sample (default 0.001); otherwise the learning
        /// stops with the best.
        public var minimumScoreGain: Double
        /// Into how many folds the beacons are split for the cross-validated score (default 8, or
        /// one fold per beacon where there are fewer; at least 2). Each round locates the traffic
        /// once per fold, and once with every beacon.
        public var heldOutFolds: Int
        /// How the calibrator weighs samples.
        public var calibrator: SiteCalibrator.Settings

        /// Settings from their values (defaults as documented on each property).
        public init(
            maximumRounds: Int = 8, patience: Int = 2, tolerance: Double = 0.5, passes: Int = 3,
            maximumAccuracy: Double = 4,
            deviceOffsetSigma: Double = 6, minimumScoreGain: Double = 0.001, heldOutFolds: Int = 8,
            calibrator: SiteCalibrator.Settings = .init()
        ) {
            self.maximumRounds = maximumRounds
            self.patience = patience
            self.tolerance = tolerance
            self.passes = passes
            self.maximumAccuracy = maximumAccuracy
            self.deviceOffsetSigma = deviceOffsetSigma
            self.minimumScoreGain = minimumScoreGain
            self.heldOutFolds = heldOutFolds
            self.calibrator = calibrator
        }

        func validate() throws(PositioningError) {
            guard maximumRounds >= 1, maximumRounds <= 100 else {
                throw .invalidConfiguration("maximumRounds must be 1...100, got \(maximumRounds)")
            }
            guard minimumScoreGain.isFinite else {
                throw .invalidConfiguration(
                    "minimumScoreGain must be a finite number of nats per sample, got \(minimumScoreGain)")
            }
            guard heldOutFolds >= 2, heldOutFolds <= 1000 else {
                throw .invalidConfiguration("heldOutFolds must be 2...1000, got \(heldOutFolds)")
            }
            guard patience >= 1 else {
                throw .invalidConfiguration("patience must be at least 1 round, got \(patience)")
            }
            guard passes >= 1, passes <= 20 else { throw .invalidConfiguration("passes must be 1...20, got \(passes)") }
            guard tolerance.isFinite, tolerance >= 0 else {
                throw .invalidConfiguration(
                    "tolerance must be a number of standard errors, 0 or more, got \(tolerance)")
            }
            guard maximumAccuracy.isFinite, maximumAccuracy > 0 else {
                throw .invalidConfiguration(
                    "maximumAccuracy must be a positive number of metres, got \(maximumAccuracy)")
            }
            guard deviceOffsetSigma.isFinite, deviceOffsetSigma > 0 else {
                throw .invalidConfiguration(
                    "deviceOffsetSigma must be a positive number of dB, got \(deviceOffsetSigma)")
            }
            guard calibrator.minimumSamples >= 0, calibrator.huberThreshold.isFinite, calibrator.huberThreshold > 0,
                calibrator.minimumDistance.isFinite, calibrator.minimumDistance > 0
            else {
                throw .invalidConfiguration(
                    "calibrator settings: minimumSamples ≥ 0, huberThreshold > 0, minimumDistance > 0")
            }
        }
    }

    /// What one round did.
    public struct Round: Sendable, Hashable {
        /// 1 for the first round.
        public var index: Int
        /// Samples paired with a usable position.
        public var pairedSamples: Int
        /// Samples without a usable position (no smoothed track around them, or too uncertain).
        public var unplacedSamples: Int
        /// The largest change of a learned P₀ or n against the models the round started from,
        /// in that beacon's standard errors.
        public var largestChange: Double
        /// The round's new models' cross-validated score, nats per sample (higher is better).
        public var score: Double
        /// The models at the end of the round.
        public var estimates: [LearnedPathLoss]
    }

    /// The outcome of ``learn(_:plan:calibration:configuration:settings:)``.
    public struct Result: Sendable {
        /// The calibrator after the last round (its statistics are the last round's).
        public var calibrator: SiteCalibrator
        /// Every plan beacon's model, in plan order: learned, or kept at the prior. A learned
        /// one's standard errors are its posterior's times √(design effect) of its samples
        /// clustered by place (`PlaceClusters`), so that samples repeating one place's
        /// shadowing do not count as independent; the rounds' estimates are not widened.
        public var estimates: [LearnedPathLoss]
        /// One model fitted to every beacon's samples together.
        public var pooled: LearnedPathLoss?
        /// The rounds, in order.
        public var rounds: [Round]
        /// Whether the stopping rule was met (rather than the round limit).
        public var converged: Bool
        /// The round whose models were kept (0: none beat the starting models, which are kept).
        public var keptRound: Int
        /// The cross-validated score of the starting models (the plan's or the given
        /// calibration's), nats per sample.
        public var startScore: Double
        /// Each device's estimated offset from the traffic's average phone, dB.
        public var deviceOffsets: [(device: String?, offset: Double)]
        /// How far those offsets spread (against the kept models): the prior to position these
        /// devices with; nil with fewer than two devices heard, or when the starting models
        /// were kept.
        public var deviceOffsetSpread: DeviceOffsetSpread?
        /// The loss through one wall learned with the kept models, dB (0–40), for the walls the
        /// plan gives no attenuation (to be set as the engine's
        /// ``PositioningEngine/Configuration/wallAttenuation``); nil when the plan gives every
        /// wall's loss, has no walls, or the starting models were kept.
        public var wallAttenuation: Double?
        /// The variance of each place's own shadowing under the kept models, dB²: how far one
        /// beacon's mean residual at one place (a device in a 2-m square cell) sits from its
        /// model beyond the scatter of the readings there (the one-way ANOVA's between-cell
        /// component). A phone that stays in a place keeps that error; it is the
        /// engine's ``PositioningEngine/Configuration/placeShadowingVariance``. Nil when the
        /// starting models were kept, or when no 2-m cell was heard twice, so that the places'
        /// error cannot be told from the readings' scatter (single scans count a cell's scans
        /// by other phones as its replicates).
        public var placeShadowingVariance: Double?

        /// The learned models to give the engine (`PositioningEngine(plan:calibration:)`): the
        /// beacons learned from traffic, plus the given calibration's for the others.
        public var models: [BeaconIdentity: PathLossModel] {
            var models = initial
            for estimate in estimates where estimate.source == .traffic { models[estimate.beacon] = estimate.model }
            return models
        }

        var initial: [BeaconIdentity: PathLossModel]
    }

    /// Learns the models of `plan`'s beacons from `samples` (any order; unlabeled: no truth).
    /// - Parameters:
    ///   - samples: the traffic: RSSI samples of any devices, in any order, without positions.
    ///   - plan: the floor plan whose beacons are learned (their positions are taken as known).
    ///   - calibration: models to start from and centre the priors on (a survey); the plan's
    ///     values where empty.
    ///   - configuration: the engine settings the batch is located with (history recording is
    ///     switched on, Kalman tracking whatever ``PositioningEngine/Configuration/tracking``
    ///     says and no ``PositioningEngine/Configuration/lag``: the samples are paired with
    ///     smoothed tracks, which untracked fixes and lagged reports do not have; their means as
    ///     the smoother gives them, not moved inside the floor's outline).
    ///   - settings: how the rounds run and stop.
    /// - Throws: ``PositioningError`` for bad settings, a plan without beacons, or traffic in
    ///   which no sample could be paired with a position (``PositioningError/noUsableTraffic(_:)``).
    public static func learn(
        _ samples: [RSSISample], plan: FloorPlan,
        calibration: [BeaconIdentity: PathLossModel] = [:],
        configuration: PositioningEngine.Configuration = .init(),
        settings: Settings = .init()
    ) throws(PositioningError) -> Result {
        try settings.validate()
        try configuration.validate()
        guard plan.beaconCount > 0 else { throw .emptyPlan }
        let beacons = plan.floors.flatMap(\.beacons).compactMap { plan.resolvedBeacon($0.identity) }
        var calibrator = SiteCalibrator(beacons: beacons, calibration: calibration, settings: settings.calibrator)
        var configuration = configuration
        configuration.recordsHistory = true
        // The rounds weigh each position by the tracker's covariance; the consider term is a
        // statement about the reported radius and leaves the learning as it was.
        configuration.considersModelMisfit = false
        // Untracked (`.none`) would leave no smoothed track to pair a sample with, and nothing
        // to learn from; the models learned are then the same as for a tracked run.
        configuration.tracking = .kalman
        // Every sample is paired with the smoothed track, which uses the whole batch: a lag
        // (`locate --self-calibrate --lag 3`) is how the positions are written afterwards, and
        // its refined reports, which the smoother passes over, would teach from 3 s of the
        // future instead of all of it.
        configuration.lag = 0
        // Its rounds position the traffic with weighted-centroid fallbacks: a detection curve
        // learned in every round would cost a fit and its tables per round, and fallbacks are
        // too uncertain to teach a model anyway; the locating after it learns the curve.
        if configuration.learnsDetection { configuration.solver.fallback = .weightedCentroid }
        var site = Site(
            plan: plan, calibrator: calibrator, configuration: configuration, settings: settings,
            samples: PositioningEngine.inBatchOrder(samples))
        // The walls the plan leaves without a loss start at the standard one and are learned
        // with the models (each pass: the least-squares loss of the pairs' residuals).
        let learnsWalls = site.learnsWalls
        if learnsWalls { site.configuration.wallAttenuation = PlanDefaults.standardWallAttenuation }

        var models = calibration
        var located = try site.locate(site.samples, models: models)
        var effects = DeviceEffects(deviceCount: site.unpaired.devices.count)
        let startScore = try site.crossValidatedScore(models: models, effects: effects)
        var best = (
            round: 0, models: models, score: startScore, estimates: [LearnedPathLoss]?.none,
            calibrator: calibrator, effects: effects, wallAttenuation: site.configuration.wallAttenuation,
            clusters: PlaceClusters?.none
        )
        var rounds: [Round] = []
        var converged = false
        for index in 1...settings.maximumRounds {
            let paired = site.pairs(site.samples, with: located)
            guard !paired.pairs.isEmpty else {
                if index > 1 { break }
                throw .noUsableTraffic(
                    samples.isEmpty
                        ? "no samples"
                        : "none of \(samples.count) samples could be paired with a position at most "
                            + "\(settings.maximumAccuracy) m uncertain on its beacon's floor (are the beacons in the plan heard?)"
                )
            }
            let before = calibrator.beacons.map { models[$0.identity] ?? $0.prior.model }
            calibrator.setModels(Dictionary(uniqueKeysWithValues: zip(site.identities, before)))
            // The walls between each pair's beacon and receiver (none without walls).
            let walls =
                site.walls.isEmpty
                ? []
                : paired.pairs.map {
                    site.walls(slot: Int($0.slot), receiver: $0.receiver, xx: $0.xx, xy: $0.xy, yy: $0.yy)
                }
            // Iteratively reweighted passes; the devices' offsets (and the walls' loss) are
            // re-estimated between them.
            for _ in 0..<settings.passes {
                calibrator.clearStatistics()
                let loss = site.configuration.wallAttenuation ?? 0
                for (i, pair) in paired.pairs.enumerated() {
                    let rssi = walls.isEmpty ? pair.rssi : pair.rssi + walls[i].given + walls[i].count * loss
                    calibrator.observe(
                        slot: Int(pair.slot), rssi: rssi, receiver: pair.receiver,
                        xx: pair.xx, xy: pair.xy, yy: pair.yy,
                        deviceOffset: effects.offsets[Int(pair.device)],
                        deviceOffsetVariance: effects.variances[Int(pair.device)])
                }
                calibrator.adoptEstimates()
                effects.update(paired.pairs, calibrator: calibrator, priorSigma: settings.deviceOffsetSigma)
                if learnsWalls {
                    site.configuration.wallAttenuation = Self.wallLoss(
                        paired.pairs, walls: walls, loss: loss, calibrator: calibrator, effects: effects)
                }
            }
            let estimates = calibrator.estimates
            var largest = 0.0
            var next = calibration
            for (slot, estimate) in estimates.enumerated() where estimate.source == .traffic {
                let old = before[slot]
                largest = max(
                    largest,
                    abs(estimate.model.measuredPower - old.measuredPower) / estimate.measuredPowerStandardError,
                    abs(estimate.model.exponent - old.exponent) / estimate.exponentStandardError)
                next[estimate.beacon] = estimate.model
            }
            let score = try site.crossValidatedScore(models: next, effects: effects)
            rounds.append(
                Round(
                    index: index, pairedSamples: paired.pairs.count, unplacedSamples: paired.unplaced,
                    largestChange: largest, score: score, estimates: estimates))
            if score > best.score + settings.minimumScoreGain {
                let clusters = Self.placeClusters(
                    paired.pairs, walls: walls, loss: site.configuration.wallAttenuation ?? 0, calibrator: calibrator,
                    effects: effects)
                best = (
                    index, next, score, estimates, calibrator, effects, site.configuration.wallAttenuation,
                    clusters
                )
            } else if index - best.round >= settings.patience {
                converged = true
                break
            }
            models = next
            if largest < settings.tolerance {
                converged = true
                break
            }
            if index < settings.maximumRounds { located = try site.locate(site.samples, models: models) }
        }
        var kept = best.calibrator
        let estimates: [LearnedPathLoss]
        if let learned = best.estimates {
            // The standard errors of samples that repeat their place's shadowing (``PlaceClusters``).
            let designEffects = best.clusters?.designEffects ?? []
            estimates = learned.enumerated().map { slot, estimate in
                guard estimate.source == .traffic, slot < designEffects.count else { return estimate }
                var widened = estimate
                let factor = designEffects[slot].squareRoot()
                widened.measuredPowerStandardError *= factor
                widened.exponentStandardError *= factor
                return widened
            }
        } else {
            kept.clearStatistics()
            estimates = kept.estimates
        }
        return Result(
            calibrator: kept, estimates: estimates, pooled: best.estimates == nil ? nil : kept.pooledEstimate,
            rounds: rounds, converged: converged, keptRound: best.round, startScore: startScore,
            deviceOffsets: zip(site.unpaired.devices, best.effects.offsets).map { ($0, $1) },
            deviceOffsetSpread: best.effects.spread,
            wallAttenuation: learnsWalls && best.estimates != nil ? best.wallAttenuation : nil,
            // Clusters are kept only with a round's models, so none when the start was kept.
            placeShadowingVariance: best.clusters?.placeVariance,
            initial: calibration)
    }

    /// The pairs' residuals clustered by place (``PlaceClusters``: each slot's design effect,
    /// the places' shadowing variance) under the calibrator's models (as
    /// ``SiteCalibrator/prediction(slot:model:receiver:xx:xy:yy:)`` gives them to the fit), the
    /// devices' offsets and the walls' loss (`loss` dB for each wall the plan leaves without one).
    static func placeClusters(
        _ pairs: [TrafficPairs.Pair], walls: [(given: Double, count: Double)], loss: Double,
        calibrator: SiteCalibrator, effects: DeviceEffects
    ) -> PlaceClusters {
        var clusters = PlaceClusters(slotCount: calibrator.beacons.count)
        for (i, pair) in pairs.enumerated() {
            let slot = Int(pair.slot)
            let (_, expected, _) = calibrator.prediction(
                slot: slot, model: calibrator.beacons[slot].model, receiver: pair.receiver, xx: pair.xx, xy: pair.xy,
                yy: pair.yy)
            let rssi = walls.isEmpty ? pair.rssi : pair.rssi + walls[i].given + walls[i].count * loss
            let residual = rssi - effects.offsets[Int(pair.device)] - expected
            clusters.add(slot: slot, device: Int(pair.device), receiver: pair.receiver, residual: residual)
        }
        return clusters
    }

    /// The loss through one wall that best explains the pairs' residuals, dB (0–40): the
    /// weighted least-squares step L − Σ w r k / Σ w k² from the current `loss` L, with r the
    /// residual of each pair against its beacon's model and device offset with the walls taken
    /// out (k walls of unknown loss between beacon and receiver, weight w = 1 / its variance).
    /// `loss` itself when no pair has a wall between.
    static func wallLoss(
        _ pairs: [TrafficPairs.Pair], walls: [(given: Double, count: Double)], loss: Double,
        calibrator: SiteCalibrator, effects: DeviceEffects
    ) -> Double {
        let models = calibrator.estimates.map(\.model)
        var numerator = 0.0, denominator = 0.0
        for (i, pair) in pairs.enumerated() where walls[i].count > 0 {
            let slot = Int(pair.slot)
            let k = walls[i].count
            let (_, expected, variance) = calibrator.prediction(
                slot: slot, model: models[slot], receiver: pair.receiver, xx: pair.xx, xy: pair.xy, yy: pair.yy)
            let r = pair.rssi + walls[i].given + k * loss - effects.offsets[Int(pair.device)] - expected
            // Huber-weighted, as the calibrator weighs its samples.
            let u = abs(r) / variance.squareRoot()
            let threshold = calibrator.settings.huberThreshold
            let w = (u <= threshold ? 1 : threshold / u) / variance
            numerator -= w * r * k
            denominator += w * k * k
        }
        guard denominator > 0 else { return loss }
        return min(max(loss + numerator / denominator, 0), 40)
    }
}
