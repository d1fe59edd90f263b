import Foundation

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

        /// Locates `samples` with `models` (smoothed when tracking).
        func locate(
            _ samples: [RSSISample], models: [BeaconIdentity: PathLossModel]
        ) throws(PositioningError)
            -> [PositionReport]
        {
            try PositioningEngine.locate(
                samples, plan: plan, calibration: models, configuration: configuration,
                smooth: configuration.tracking == .kalman)
        }

        /// The walls between beacon `slot` and `receiver`: the loss of those the plan gives, dB,
        /// and how many of those whose loss is learned.
        func walls(slot: Int, receiver: Point3D) -> (given: Double, count: Int) {
            guard let floor = walls[levels[slot]] else { return (0, 0) }
            let b = calibrator.beacons[slot].position
            return (
                floor.given.loss(b.x, b.y, receiver.x, receiver.y),
                floor.learned.crossings(b.x, b.y, receiver.x, receiver.y)
            )
        }

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
                    let wall = walls(slot: slot, receiver: pair.receiver)
                    let loss = wall.given + Double(wall.count) * (configuration.wallAttenuation ?? 0)
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
