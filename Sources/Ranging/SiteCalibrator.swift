import BeaconModel
import Foundation

/// Learns each beacon's path-loss model (P₀, n, σ) from unlabeled traffic: RSSI samples paired
/// with where the receiver probably was (a position estimate and its covariance), with priors
/// centred on the plan's values or on a given calibration. Maximum a posteriori, robust, and
/// with bounded memory: per beacon it keeps only ``PathLossStatistics``.
///
/// ## The model
/// A sample of beacon b heard by a device with offset Δ at a receiver position p is
///
///     y = P₀ᵦ + Δ − 10 nᵦ log₁₀ dᵦ(p) + ε,   ε ~ N(0, σᵦ²),
///
/// with dᵦ(p) the 3-D distance from the beacon (the receiver's height from the plan). With
/// x = −10 log₁₀ d this is linear in (P₀, n), so with the Gaussian priors of
/// ``PathLossPrior`` the posterior of (P₀, n) given σ is Gaussian with precision
///
///     A = (1/σ²) [Σω, Σωx; Σωx, Σωx²] + diag(1/τ_P², 1/τ_n²)
///
/// and mean A⁻¹ [(1/σ²)(Σωy, Σωxy) + (μ_P/τ_P², μ_n/τ_n²)]; σ² is the mode of its scaled
/// inverse-χ² posterior, (ν₀s₀² + Σω r²)/(ν₀ + Σω(1 − h)), with h each sample's leverage
/// (what its position and device offset, estimated from the same readings, took from its
/// residual; see ``observe(slot:rssi:receiver:xx:xy:yy:deviceOffset:deviceOffsetVariance:positionFromReadings:)``).
/// The two are iterated to a fixed point.
///
/// ## The weights ω
/// - **Position uncertainty.** The position is an estimate with horizontal covariance Σ, so
///   ln d is uncertain with variance v = gᵀΣg, g = (p − b)ₕ / d². Through the slope
///   k = 10n/ln 10 that adds k²v to the sample's variance; the sample enters with
///   ω = σ²/(σ² + k²v) of a full sample (an errors-in-variables weight), so samples whose
///   position is poorly known, or that lie very close to the beacon, teach little.
/// - **Outliers.** A Huber weight min(1, c/|u|) on the standardised residual
///   u = (y − Δ − ŷ)/√(σ² + k²v) against the model in force (``Beacon/model``), c =
///   ``Settings/huberThreshold``. Iterating passes with ``adoptEstimates()`` in between is
///   iteratively reweighted least squares.
///
/// ## Gauge
/// A common shift of every P₀ is indistinguishable from the same shift of every device's
/// offset Δ. The calibrator takes the offsets it is given (`deviceOffset`) as known; the batch
/// learner (`TrafficCalibration` in IndoorPositioning) estimates them as zero-mean effects across
/// the devices seen, so the learned P₀ describe the average phone of the traffic, and the
/// prior ties each P₀ to the plan's within ``PathLossPrior/measuredPowerSigma``.
///
/// Beacons with fewer than ``Settings/minimumSamples`` samples keep the prior's values
/// (``LearnedPathLoss/Source/plan``).
public struct SiteCalibrator: Sendable {
    /// How samples are weighed and when a beacon counts as learned.
    public struct Settings: Sendable, Hashable, Codable {
        /// Fewer samples than this and a beacon keeps its prior's values (default 30: with the
        /// default priors and σ ≈ 4–6 dB, fewer samples move P₀ by less than its prior σ and
        /// leave n essentially at the prior).
        public var minimumSamples: Int
        /// Huber threshold c on the standardised residual (default 2: about 90 % efficiency
        /// under Gaussian noise, bounded influence for body shadowing and reflections).
        public var huberThreshold: Double
        /// Distances below this are clamped to it, metres (default 0.1).
        public var minimumDistance: Double

        /// Settings from their values (defaults as documented on each property).
        public init(minimumSamples: Int = 30, huberThreshold: Double = 2, minimumDistance: Double = 0.1) {
            self.minimumSamples = minimumSamples
            self.huberThreshold = huberThreshold
            self.minimumDistance = minimumDistance
        }
    }

    /// One beacon's learning state.
    public struct Beacon: Sendable, Hashable, Codable {
        /// The beacon.
        public var identity: BeaconIdentity
        /// Its position in the building frame, metres.
        public var position: Point3D
        /// The prior its model is learned against.
        public var prior: PathLossPrior
        /// The model in force for weighing samples (the prior's mean at first; the estimate
        /// after ``SiteCalibrator/adoptEstimates()``).
        public var model: PathLossModel
        /// What it has learned from.
        public var statistics: PathLossStatistics
    }

    /// The settings in force.
    public var settings: Settings
    /// The beacons, in the order given.
    public private(set) var beacons: [Beacon]
    private var slots: [BeaconIdentity: Int]

    /// A calibrator for `beacons` (identity, position), each with its prior.
    public init(
        beacons: [(identity: BeaconIdentity, position: Point3D, prior: PathLossPrior)],
        settings: Settings = Settings()
    ) {
        self.settings = settings
        self.beacons = beacons.map {
            Beacon(
                identity: $0.identity, position: $0.position, prior: $0.prior, model: $0.prior.model,
                statistics: PathLossStatistics())
        }
        var slots: [BeaconIdentity: Int] = [:]
        for (slot, beacon) in self.beacons.enumerated() { slots[beacon.identity] = slot }
        self.slots = slots
    }

    /// A calibrator for the resolved beacons of a plan. A beacon with a model in `calibration`
    /// gets the narrower ``PathLossPrior/surveyed(_:)`` prior centred on it, the others the
    /// generic prior centred on the plan's values (σ prior 4 dB).
    public init(
        beacons: [ResolvedBeacon], calibration: [BeaconIdentity: PathLossModel] = [:],
        settings: Settings = Settings()
    ) {
        self.init(
            beacons: beacons.map { beacon in
                let prior =
                    calibration[beacon.identity].map(PathLossPrior.surveyed)
                    ?? PathLossPrior(centredOn: PathLossModel(beacon))
                return (beacon.identity, beacon.position, prior)
            }, settings: settings)
    }

    /// The slot of a beacon, or nil when the calibrator does not know it.
    public func slot(of identity: BeaconIdentity) -> Int? { slots[identity] }

    /// Adds one sample: beacon `identity` heard at `rssi` dBm by a receiver at `receiver`
    /// (building frame, metres) whose horizontal position has covariance (`xx`, `xy`, `yy`) m²,
    /// on a device whose offset is `deviceOffset` dB, estimated with variance
    /// `deviceOffsetVariance` dB² (0: known).
    ///
    /// With `positionFromReadings` (the default) the position and the offset are taken to be
    /// estimates made from readings that include this one, weighed with the models' σ², so the
    /// sample's residual scatters by σ²(1 − h) with its leverage h = (k²gᵀΣg + var Δ)/σ² (the
    /// hat-matrix diagonal of that estimate; k, g as in
    /// ``prediction(slot:model:receiver:xx:xy:yy:)``), and σ² is learned over Σω(1 − h) degrees
    /// of freedom (``PathLossStatistics/leverage``). Pass false for a position known otherwise,
    /// or estimated with other variances (a tracker's, scaled by its learned noise factor):
    /// then only the offset's variance counts.
    /// - Returns: false (and nothing is learned) for an unknown beacon or a non-finite value.
    @discardableResult
    public mutating func observe(
        _ identity: BeaconIdentity, rssi: Double, receiver: Point3D,
        xx: Double, xy: Double, yy: Double, deviceOffset: Double = 0, deviceOffsetVariance: Double = 0,
        positionFromReadings: Bool = true
    ) -> Bool {
        guard let slot = slots[identity] else { return false }
        return observe(
            slot: slot, rssi: rssi, receiver: receiver, xx: xx, xy: xy, yy: yy, deviceOffset: deviceOffset,
            deviceOffsetVariance: deviceOffsetVariance, positionFromReadings: positionFromReadings)
    }

    /// ``observe(_:rssi:receiver:xx:xy:yy:deviceOffset:deviceOffsetVariance:positionFromReadings:)``
    /// by slot (see ``slot(of:)``).
    @discardableResult
    public mutating func observe(
        slot: Int, rssi: Double, receiver: Point3D,
        xx: Double, xy: Double, yy: Double, deviceOffset: Double = 0, deviceOffsetVariance: Double = 0,
        positionFromReadings: Bool = true
    ) -> Bool {
        guard beacons.indices.contains(slot), rssi.isFinite, deviceOffset.isFinite,
            receiver.x.isFinite, receiver.y.isFinite, receiver.z.isFinite,
            xx.isFinite, xy.isFinite, yy.isFinite, xx >= 0, yy >= 0,
            deviceOffsetVariance.isFinite, deviceOffsetVariance >= 0
        else { return false }
        let model = beacons[slot].model
        let (distance, expected, variance) = prediction(
            slot: slot, model: model, receiver: receiver, xx: xx, xy: xy, yy: yy)
        let shadowing = model.sigma * model.sigma
        let corrected = rssi - deviceOffset
        let u = (corrected - expected) / variance.squareRoot()
        let robust = abs(u) <= settings.huberThreshold ? 1 : settings.huberThreshold / abs(u)
        let weight = robust * shadowing / variance
        guard weight.isFinite, weight > 0 else { return false }
        // variance − σ² is k²gᵀΣg, the position's share of the prediction's variance.
        let leverage = ((positionFromReadings ? variance - shadowing : 0) + deviceOffsetVariance) / shadowing
        beacons[slot].statistics.add(distance: distance, rssi: corrected, weight: weight, leverage: leverage)
        return true
    }

    /// What `model` predicts for a sample of the beacon in `slot` heard at `receiver` (building
    /// frame, metres) whose horizontal position has covariance (`xx`, `xy`, `yy`) m²: the 3-D
    /// distance (at least ``Settings/minimumDistance``), the expected RSSI there (dBm), and the
    /// sample's variance σ² + k² var(ln d), with var(ln d) = gᵀΣg, g = (p − b)ₕ/d² and
    /// k = 10n/ln 10 (dB²).
    public func prediction(
        slot: Int, model: PathLossModel, receiver: Point3D, xx: Double, xy: Double, yy: Double
    )
        -> (distance: Double, expected: Double, variance: Double)
    {
        let position = beacons[slot].position
        let dx = receiver.x - position.x, dy = receiver.y - position.y, dz = receiver.z - position.z
        let distance = Swift.max((dx * dx + dy * dy + dz * dz).squareRoot(), settings.minimumDistance)
        let d2 = distance * distance
        let gx = dx / d2, gy = dy / d2
        let logVariance = gx * gx * xx + 2 * gx * gy * xy + gy * gy * yy
        let slope = model.logSlope
        return (
            distance, model.expectedRSSI(atDistance: distance), model.sigma * model.sigma + slope * slope * logVariance
        )
    }

    /// Every beacon's current estimate, in the order given.
    public var estimates: [LearnedPathLoss] { beacons.map(estimate) }

    /// The estimate of one beacon from its statistics and prior.
    public func estimate(_ beacon: Beacon) -> LearnedPathLoss {
        let stats = beacon.statistics
        let prior = beacon.prior
        guard stats.count >= settings.minimumSamples,
            let posterior = Self.posterior(stats, prior: prior)
        else {
            return LearnedPathLoss(
                beacon: beacon.identity, model: prior.model,
                measuredPowerStandardError: prior.measuredPowerSigma,
                exponentStandardError: prior.exponentSigma, correlation: 0,
                count: stats.count, effectiveCount: stats.weight, prior: prior, source: .plan)
        }
        return LearnedPathLoss(
            beacon: beacon.identity, model: posterior.model,
            measuredPowerStandardError: posterior.measuredPowerError,
            exponentStandardError: posterior.exponentError, correlation: posterior.correlation,
            count: stats.count, effectiveCount: stats.weight, prior: prior, source: .traffic)
    }

    /// The estimate over every beacon's samples together (one model for the whole site), with
    /// the mean of the beacons' priors; nil when no sample was added.
    public var pooledEstimate: LearnedPathLoss? {
        guard !beacons.isEmpty else { return nil }
        var stats = PathLossStatistics()
        var p = 0.0, n = 0.0, s = 0.0
        for beacon in beacons {
            stats.merge(beacon.statistics)
            p += beacon.prior.measuredPower
            n += beacon.prior.exponent
            s += beacon.prior.sigma
        }
        let k = Double(beacons.count)
        let prior = PathLossPrior(
            measuredPower: p / k, measuredPowerSigma: beacons[0].prior.measuredPowerSigma,
            exponent: n / k, exponentSigma: beacons[0].prior.exponentSigma,
            sigma: s / k, sigmaWeight: beacons[0].prior.sigmaWeight)
        guard stats.count > 0, let posterior = Self.posterior(stats, prior: prior) else { return nil }
        return LearnedPathLoss(
            beacon: beacons[0].identity, model: posterior.model,
            measuredPowerStandardError: posterior.measuredPowerError,
            exponentStandardError: posterior.exponentError, correlation: posterior.correlation,
            count: stats.count, effectiveCount: stats.weight, prior: prior, source: .traffic)
    }

    /// Makes each beacon's estimate the model that weighs the next samples (the step between
    /// two passes of iteratively reweighted least squares, or a periodic update online).
    public mutating func adoptEstimates() {
        for slot in beacons.indices { beacons[slot].model = estimate(beacons[slot]).model }
    }

    /// Sets the model that weighs the next samples of each beacon named in `models`.
    public mutating func setModels(_ models: [BeaconIdentity: PathLossModel]) {
        for (identity, model) in models {
            if let slot = slots[identity] { beacons[slot].model = model }
        }
    }

    /// Forgets every sample (priors and models in force stay).
    public mutating func clearStatistics() {
        for slot in beacons.indices { beacons[slot].statistics = PathLossStatistics() }
    }

    /// Adds another calibrator's statistics for the beacons both know (for example one fed by
    /// another process or another day).
    public mutating func merge(_ other: SiteCalibrator) {
        for beacon in other.beacons {
            if let slot = slots[beacon.identity] { beacons[slot].statistics.merge(beacon.statistics) }
        }
    }

    /// The exponents a learned model may take: 1.0 to 6.0. Measured indoor exponents run from
    /// about 1.6 (line of sight along corridors) to 4–6 (obstructed, through floors or walls)
    /// (Rappaport, *Wireless Communications*, 2nd ed., table 4.2); a receiver's own survey fit
    /// on a shared data set reached 0.9. Below 1 a fit is saying that the beacon's RSSI carries
    /// almost no range information (readings at a few static points, or censored far
    /// readings), and a negative exponent (RSSI rising with distance) is impossible.
    public static let exponentLimits: ClosedRange<Double> = 1.0...6.0
    /// How far a learned measured power may move from its prior mean: three prior standard
    /// deviations (± 24 dB around a plan's value, ± 9 dB around a survey's). Two would cut a real
    /// value: one kolakowski-flat anchor's survey fit is 17 dB above the generic −59 dBm.
    public static let measuredPowerLimitInSigmas = 3.0
    /// The smallest σ a learned model takes, dB: ``PathLossModel/minimumSigma``.
    public static let minimumSigma = PathLossModel.minimumSigma

    /// The measured powers the prior allows (``measuredPowerLimitInSigmas`` around its mean).
    static func powerLimits(_ prior: PathLossPrior) -> ClosedRange<Double> {
        let reach = measuredPowerLimitInSigmas * prior.measuredPowerSigma
        return (prior.measuredPower - reach)...(prior.measuredPower + reach)
    }

    /// The minimum of ½ xᵀHx − rᵀx over the box `powers` × `exponents`, H = [a b; b c] positive
    /// definite, x = (P₀, n): a constraint of the fit, not a clamp after it. The minimum is the
    /// interior one when it lies in the box; otherwise on an edge (one coordinate at its bound,
    /// the other solved and inside its range) or at a corner: the best of those candidates.
    static func constrainedMode(
        a: Double, b: Double, c: Double, r0: Double, r1: Double,
        powers: ClosedRange<Double>, exponents: ClosedRange<Double>
    ) -> (Double, Double) {
        let det = a * c - b * b
        let p = (c * r0 - b * r1) / det, n = (a * r1 - b * r0) / det
        if powers.contains(p), exponents.contains(n) { return (p, n) }
        func value(_ p: Double, _ n: Double) -> Double {
            0.5 * (a * p * p + 2 * b * p * n + c * n * n) - r0 * p - r1 * n
        }
        var best = (p: powers.lowerBound, n: exponents.lowerBound)
        var bestValue = Double.infinity
        func consider(_ p: Double, _ n: Double) {
            guard powers.contains(p), exponents.contains(n) else { return }
            let v = value(p, n)
            if v < bestValue {
                bestValue = v
                best = (p, n)
            }
        }
        for n in [exponents.lowerBound, exponents.upperBound] { consider((r0 - b * n) / a, n) }
        for p in [powers.lowerBound, powers.upperBound] { consider(p, (r1 - b * p) / c) }
        for p in [powers.lowerBound, powers.upperBound] {
            for n in [exponents.lowerBound, exponents.upperBound] { consider(p, n) }
        }
        return best
    }

    struct Posterior {
        var model: PathLossModel
        var measuredPowerError: Double
        var exponentError: Double
        var correlation: Double
    }

    /// The posterior mode of (P₀, n, σ) given the statistics and the prior; nil when it is not
    /// finite (it always is for a valid prior).
    static func posterior(_ stats: PathLossStatistics, prior: PathLossPrior) -> Posterior? {
        guard prior.isValid else { return nil }
        let lp = 1 / (prior.measuredPowerSigma * prior.measuredPowerSigma)
        let ln = 1 / (prior.exponentSigma * prior.exponentSigma)
        var sigma2 = prior.sigma * prior.sigma
        var p = prior.measuredPower, n = prior.exponent
        var a = 0.0, b = 0.0, c = 0.0, det = 1.0
        // σ² and (P₀, n) depend on each other; the fixed point is reached in a few rounds.
        for _ in 0..<8 {
            let s = 1 / sigma2
            a = s * stats.weight + lp
            b = s * stats.sumX
            c = s * stats.sumXX + ln
            det = a * c - b * b
            guard det > 0, det.isFinite else { return nil }
            let r0 = s * stats.sumY + lp * prior.measuredPower
            let r1 = s * stats.sumXY + ln * prior.exponent
            (p, n) = constrainedMode(
                a: a, b: b, c: c, r0: r0, r1: r1, powers: powerLimits(prior), exponents: exponentLimits)
            let rss = stats.residualSumOfSquares(measuredPower: p, exponent: n)
            let next = max(
                (prior.sigmaWeight * prior.sigma * prior.sigma + rss)
                    / (prior.sigmaWeight + stats.residualDegreesOfFreedom),
                minimumSigma * minimumSigma)
            guard next.isFinite, next > 0 else { return nil }
            let settled = abs(next - sigma2) < 1e-9 * sigma2
            sigma2 = next
            if settled { break }
        }
        let varP = c / det, varN = a / det, cov = -b / det
        guard p.isFinite, n.isFinite, varP > 0, varN > 0 else { return nil }
        return Posterior(
            model: PathLossModel(measuredPower: p, exponent: n, sigma: sigma2.squareRoot()),
            measuredPowerError: varP.squareRoot(), exponentError: varN.squareRoot(),
            correlation: cov / (varP * varN).squareRoot())
    }
}

extension SiteCalibrator: Codable {
    private enum Keys: String, CodingKey { case settings, beacons }

    /// Decodes the settings and every beacon's prior, model and statistics.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        settings = try container.decode(Settings.self, forKey: .settings)
        beacons = try container.decode([Beacon].self, forKey: .beacons)
        var slots: [BeaconIdentity: Int] = [:]
        for (slot, beacon) in beacons.enumerated() { slots[beacon.identity] = slot }
        self.slots = slots
    }

    /// Encodes the settings and every beacon's prior, model and statistics.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(settings, forKey: .settings)
        try container.encode(beacons, forKey: .beacons)
    }
}
