import Foundation
import LinearAlgebra

extension TrafficCalibration {
    /// What every round of ``TrafficCalibration/learn(_:plan:calibration:configuration:settings:)``
    /// works on: the plan's beacons in the calibrator's order, the traffic in batch order, and the
    /// engine settings it is located with.
    struct Site {
        let plan: FloorPlan
        let calibrator: SiteCalibrator
        /// The engine settings the traffic is located with (their wall attenuation is the one
        /// being learned, set before each locating).
        var configuration: PositioningEngine.Configuration
        /// Per level: the walls whose loss the plan gives (their own or its default), and the
        /// walls it leaves out, whose one loss is learned.
        let walls: [Int: (given: FloorWalls, learned: FloorWalls)]
        /// Whether the plan leaves some wall's loss out (so that it is learned).
        var learnsWalls: Bool { walls.values.contains { !$0.learned.isEmpty } }
        let settings: Settings
        /// The traffic in ``PositioningEngine/inBatchOrder(_:)``.
        let samples: [RSSISample]
        let identities: [BeaconIdentity]
        let levels: [Int]
        /// No pairs yet, with the traffic's devices indexed (copied for every pairing).
        let unpaired: TrafficPairs
        /// The traffic split by cross-validation fold: (samples without the fold, the fold's samples).
        let folds: [(others: [RSSISample], held: [RSSISample])]

        init(
            plan: FloorPlan, calibrator: SiteCalibrator, configuration: PositioningEngine.Configuration,
            settings: Settings, samples: [RSSISample]
        ) {
            self.plan = plan
            self.calibrator = calibrator
            self.configuration = configuration
            self.settings = settings
            self.samples = samples
            var walls: [Int: (given: FloorWalls, learned: FloorWalls)] = [:]
            for floor in plan.floors where !floor.walls.isEmpty {
                let unknown = plan.defaults.wallAttenuation == nil
                let given = floor.walls.filter { !unknown || $0.attenuation != nil }
                let learned = floor.walls.filter { unknown && $0.attenuation == nil }
                walls[floor.level] = (
                    FloorWalls(
                        given, attenuation: plan.defaults.wallAttenuation ?? PlanDefaults.standardWallAttenuation),
                    FloorWalls(learned, attenuation: 1)
                )
            }
            self.walls = walls
            unpaired = TrafficPairs(samples: samples)
            identities = calibrator.beacons.map(\.identity)
            var levelOf: [BeaconIdentity: Int] = [:]
            for floor in plan.floors { for beacon in floor.beacons { levelOf[beacon.identity] = floor.level } }
            levels = identities.map { levelOf[$0] ?? 0 }
            let count = min(settings.heldOutFolds, identities.count)
            var fold: [BeaconIdentity: Int] = [:]
            for (slot, identity) in identities.enumerated() { fold[identity] = slot % count }
            folds = (0..<count).map { f in
                (samples.filter { fold[$0.identity] != f }, samples.filter { fold[$0.identity] == f })
            }
        }

        /// Locates `samples` with `models` (smoothed when tracking; the smoothed means as the
        /// smoother gives them, not moved inside the outline).
        func locate(
            _ samples: [RSSISample], models: [BeaconIdentity: PathLossModel]
        ) throws(PositioningError)
            -> [PositionReport]
        {
            // The smoother's own means: one moved onto the outline would pull the distances the
            // models are fitted to (kolakowski-flat's robot drive learned on itself: 2.02 m kept
            // inside, 1.59 m as smoothed; Docs/Evidence/CalibrationStudies.md).
            try PositioningEngine.locate(
                samples, plan: plan, calibration: models, configuration: configuration,
                smooth: configuration.tracking == .kalman, keepingSmoothedInside: false)
        }

        /// The walls between beacon `slot` and a receiver at `receiver` with horizontal covariance
        /// (`xx`, `xy`, `yy`, m²): the expected loss of those the plan gives, dB, and the
        /// expected number of those whose loss is learned, over the receiver's Gaussian (a 3 × 3
        /// Gauss–Hermite rule in the covariance's Cholesky frame). Expected rather than counted
        /// at the mean: a position on the wrong side of a wall would otherwise pull the learned
        /// loss towards zero (regression dilution).
        func walls(slot: Int, receiver: Point3D, xx: Double, xy: Double, yy: Double) -> (given: Double, count: Double) {
            guard let floor = walls[levels[slot]] else { return (0, 0) }
            let b = calibrator.beacons[slot].position
            let l00 = max(xx, 1e-9).squareRoot(), l10 = xy / l00
            let l11 = max(yy - l10 * l10, 1e-9).squareRoot()
            let (nodes, weights) = (Self.receiverRule.nodes, Self.receiverRule.weights)
            var given = 0.0, count = 0.0
            for i in nodes.indices {
                for j in nodes.indices {
                    let x = receiver.x + l00 * nodes[i], y = receiver.y + l10 * nodes[i] + l11 * nodes[j]
                    let w = weights[i] * weights[j]
                    given += w * floor.given.loss(b.x, b.y, x, y)
                    count += w * Double(floor.learned.crossings(b.x, b.y, x, y))
                }
            }
            return (given, count)
        }

        /// The 3-node Gauss–Hermite rule for a standard normal variable: nodes ±√3 and 0, weights
        /// 1/6, 2/3, 1/6 (`GaussHermite`'s nodes times √2, its weights over √π).
        static let receiverRule: (nodes: [Double], weights: [Double]) = {
            let rule = GaussHermite(order: 3)
            return (rule.nodes.map { $0 * 2.0.squareRoot() }, rule.weights.map { $0 / Double.pi.squareRoot() })
        }()

        /// `samples` paired with the positions of `reports`.
        func pairs(_ samples: [RSSISample], with reports: [PositionReport]) -> TrafficPairs {
            var pairs = unpaired
            pairs.add(
                samples: samples, reports: reports, calibrator: calibrator, levels: levels,
                maximumAccuracy: settings.maximumAccuracy, maximumGap: 2.5 * configuration.epoch)
            return pairs
        }

        /// The held-out-beacon cross-validated score of `models`: each fold's samples predicted
        /// from positions located without that fold, as the mean robust log-density
        ///
        ///     −½ ln(2π s²) − ρ(r / s),   s² = σ² + k² var(ln d),   r = y − Δ − ŷ(d),
        ///
        /// ρ Huber's loss with the calibrator's threshold (nats per sample; −∞ when nothing
        /// could be predicted).
        func crossValidatedScore(
            models: [BeaconIdentity: PathLossModel], effects: DeviceEffects
        )
            throws(PositioningError) -> Double
        {
            let threshold = settings.calibrator.huberThreshold
            var total = 0.0
            var count = 0
            for fold in folds where !fold.held.isEmpty {
                let reports = try locate(fold.others, models: models)
                for pair in pairs(fold.held, with: reports).pairs {
                    let slot = Int(pair.slot)
                    let model = models[identities[slot]] ?? calibrator.beacons[slot].prior.model
                    let (_, expected, variance) = calibrator.prediction(
                        slot: slot, model: model, receiver: pair.receiver,
                        xx: pair.xx, xy: pair.xy, yy: pair.yy)
                    let offset =
                        effects.offsets.indices.contains(Int(pair.device)) ? effects.offsets[Int(pair.device)] : 0
                    let wall = walls(slot: slot, receiver: pair.receiver, xx: pair.xx, xy: pair.xy, yy: pair.yy)
                    let loss = wall.given + wall.count * (configuration.wallAttenuation ?? 0)
                    let u = abs(pair.rssi + loss - offset - expected) / variance.squareRoot()
                    let rho = u <= threshold ? 0.5 * u * u : threshold * u - 0.5 * threshold * threshold
                    total += -0.5 * Foundation.log(2 * Double.pi * variance) - rho
                    count += 1
                }
            }
            return count > 0 ? total / Double(count) : -.infinity
        }
    }
}
