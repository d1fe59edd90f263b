import LinearAlgebra

/// How far each beacon's readings sit from its path-loss model for one device, and what that
/// misfit does to a position: the Schmidt "consider" term of the reported radius.
///
/// The tracker's covariance assumes that the models are right and that a reading's error is
/// shadowing, which a moving phone sees change. A beacon whose real power or exponent differs
/// from its model (the plan's generic values, a survey made elsewhere) reads high or low by the
/// same amount epoch after epoch, and so does a phone held still in one beacon's shadow. Such a
/// bias does not average away with more samples, so it is *considered* (Schmidt 1966; Bierman,
/// *Factorization Methods for Discrete Sequential Estimation*, 1977, ch. VIII): its effect on the
/// position is added to the covariance without estimating it.
///
/// **The bias spread.** After each tracked epoch, every beacon b heard gets its residual
/// rᵦ = RSSI̅ᵦ − h_b(x̂) − Δ̂ at the tracked position (the epoch's mean RSSI, the model, the
/// estimated device offset), less the epoch's weighted mean residual when the offset is
/// estimated (a common shift is the offset's, not a beacon's). Per beacon, exponentially
/// weighted sums over about ``memory`` of its epochs give its mean residual r̄ᵦ and the mean's
/// sampling variance vᵦ (the residuals' variance times Σw²/(Σw)²). The bias variance is the
/// method-of-moments estimate pooled over the beacons of the epoch with at least
/// ``minimumEpochs`` epochs:
///
///     σ_b² = max(0, mean_b (r̄ᵦ² − vᵦ)),
///
/// and at least what of its place's shadowing the phone still carries when the models came
/// with a place variance (``PlaceShadowing``, `PositioningEngine.Configuration
/// .placeShadowingVariance`): residuals of models fitted to the same traffic do not show it.
///
/// Shadowing that lasts a few seconds makes consecutive residuals alike, so the independent
/// sampling variance understates the mean's and σ_b² would lean high. vᵦ is therefore the
/// independent value times (1 + qρ)/(1 − qρ), the variance factor of an exponentially weighted
/// mean (weights qᵏ, q = 1 − 1/``memory``) of residuals that decay as an AR(1) process, with ρ
/// the lag-one correlation of consecutive residuals about their beacons' means, pooled over the
/// device's beacons (``correlation``; a pair counts when the beacon was scored in consecutive
/// epochs).
///
/// **The consider covariance.** With the epoch's beacons' gradients Hᵦ = (∂h/∂x, ∂h/∂y, 1) (the
/// last column only when the device offset is estimated) and the weights wᵦ = mᵦ / (λσᵦ² κᵦ) the
/// tracker gives their mᵦ samples (λ its noise scale, κᵦ the beacon's consistency inflation),
/// biases of variance σ_b² move a weighted least-squares position by
///
///     C = σ_b² F⁻¹ (Σ wᵦ² Hᵦ Hᵦᵀ) F⁻¹,   F = Σ wᵦ Hᵦ Hᵦᵀ,
///
/// whose horizontal block is added to the report's covariance. A beacon whose model comes with
/// stated standard errors (`PositioningEngine.Configuration.modelUncertainty`) adds its own
/// bias variance sᵦ²(d) at the device's distance, F⁻¹ (wᵦ² sᵦ² Hᵦ Hᵦᵀ) F⁻¹: the error a
/// calibration admits, which residuals cannot show when the models were fitted to the same
/// readings. C does not shrink as samples
/// accumulate (scaling every wᵦ leaves it unchanged), which is the point: a still phone's radius
/// floors at what its place's misfit allows. Fewer than three beacons (two without an offset
/// column), or a singular F, add nothing.
///
/// Per device, so that devices stay independent (and a sharded run gives the same bytes).
struct ModelMisfit: Sendable {
    /// Epochs of memory of each beacon's running sums.
    static let memory = 30.0
    /// Epochs a beacon must have been scored before it counts in the pooled σ_b².
    static let minimumEpochs = 5

    /// Pairs of consecutive residuals (pooled over the beacons) of memory of the correlation's
    /// running sums.
    static let correlationMemory = 300.0
    /// Pairs needed before the correlation counts (until then it is taken as 0).
    static let minimumPairs = 20.0
    /// The largest lag-one correlation used: ρ → 1 would make the residuals one sample.
    static let largestCorrelation = 0.9

    /// Beacon slots.
    let count: Int
    /// Per slot: Σw, Σw², Σw r, Σw r² with exponential forgetting, and the epochs seen; empty
    /// until the first residual (a device that is never tracked allocates nothing).
    private var weight: [Double] = []
    private var weightSquared: [Double] = []
    private var sum: [Double] = []
    private var sumSquares: [Double] = []
    private var epochs: [Int] = []
    /// Per slot: the last residual's deviation from the slot's running mean, and its time, s.
    private var lastDeviation: [Double] = []
    private var lastTime: [Double] = []
    /// Pooled over the slots, with forgetting: Σ dₜdₜ₋₁, Σ (dₜ² + dₜ₋₁²)/2 and the pairs' weight.
    private var lagProduct = 0.0
    private var lagSquares = 0.0
    private var pairs = 0.0

    /// Statistics for `count` beacon slots.
    init(count: Int) { self.count = count }

    /// Adds one epoch's centred residual of the beacon in `slot`, dB, at `time` (s); the pair
    /// it makes with the slot's previous residual counts in ``correlation`` when that one is at
    /// most `consecutive` seconds older (the previous epoch).
    mutating func record(slot: Int, residual r: Double, time: Double, consecutive: Double) {
        guard r.isFinite else { return }
        let keep = 1 - 1 / Self.memory
        if epochs.isEmpty {
            // Into the storage a recycled track kept (``overwrite(with:)`` empties it).
            let zeros = repeatElement(0.0, count: count)
            weight.append(contentsOf: zeros)
            weightSquared.append(contentsOf: zeros)
            sum.append(contentsOf: zeros)
            sumSquares.append(contentsOf: zeros)
            lastDeviation.append(contentsOf: zeros)
            lastTime.append(contentsOf: repeatElement(-Double.infinity, count: count))
            epochs.append(contentsOf: repeatElement(0, count: count))
        }
        // The deviation from the slot's mean so far: the bias is the mean's, the correlation
        // is of what varies about it.
        let deviation = weight[slot] > 0 ? r - sum[slot] / weight[slot] : 0
        if weight[slot] > 0, time - lastTime[slot] <= consecutive {
            let forget = 1 - 1 / Self.correlationMemory
            lagProduct = forget * lagProduct + deviation * lastDeviation[slot]
            lagSquares = forget * lagSquares + (deviation * deviation + lastDeviation[slot] * lastDeviation[slot]) / 2
            pairs = forget * pairs + 1
        }
        lastDeviation[slot] = deviation
        lastTime[slot] = time
        weight[slot] = keep * weight[slot] + 1
        weightSquared[slot] = keep * keep * weightSquared[slot] + 1
        sum[slot] = keep * sum[slot] + r
        sumSquares[slot] = keep * sumSquares[slot] + r * r
        epochs[slot] += 1
    }

    /// The lag-one correlation ρ of consecutive residuals about their beacons' means, pooled
    /// over the beacons: Σ dₜdₜ₋₁ / Σ (dₜ² + dₜ₋₁²)/2, clamped to [0, ``largestCorrelation``];
    /// 0 before ``minimumPairs`` pairs.
    var correlation: Double {
        guard pairs >= Self.minimumPairs, lagSquares > 0 else { return 0 }
        let rho = lagProduct / lagSquares
        return rho.isFinite ? min(max(rho, 0), Self.largestCorrelation) : 0
    }

    /// The beacon's squared mean residual less its sampling variance, dB² (nil before
    /// ``minimumEpochs``). The sampling variance of the exponentially weighted mean, weights
    /// qᵏ (q = 1 − 1/``memory``), of AR(1) residuals is the independent one, v Σw²/(Σw)², times
    /// Σₖ (qρ)^|k| = (1 + qρ)/(1 − qρ); `q` is qρ (``correlationWeight``).
    private func excess(slot: Int, q: Double) -> Double? {
        guard slot < epochs.count, epochs[slot] >= Self.minimumEpochs, weight[slot] > 0 else { return nil }
        let mean = sum[slot] / weight[slot]
        let variance = max(sumSquares[slot] / weight[slot] - mean * mean, 0)
        return mean * mean - variance * weightSquared[slot] / (weight[slot] * weight[slot]) * (1 + q) / (1 - q)
    }

    /// qρ, q = 1 − 1/``memory``: the correlation of the exponentially weighted mean's terms.
    private var correlationWeight: Double { (1 - 1 / Self.memory) * correlation }

    /// The pooled bias variance σ_b² over `slots`, dB² (0 when none has enough epochs).
    func biasVariance<S: Sequence>(over slots: S) -> Double where S.Element == Int {
        var total = 0.0
        var count = 0
        let q = correlationWeight
        for slot in slots {
            guard let e = excess(slot: slot, q: q) else { continue }
            total += e
            count += 1
        }
        return count > 0 ? max(total / Double(count), 0) : 0
    }

    /// Makes these statistics equal to `other`'s, in this one's storage.
    mutating func overwrite(with other: ModelMisfit) {
        weight.overwrite(with: other.weight)
        weightSquared.overwrite(with: other.weightSquared)
        sum.overwrite(with: other.sum)
        sumSquares.overwrite(with: other.sumSquares)
        epochs.overwrite(with: other.epochs)
        lastDeviation.overwrite(with: other.lastDeviation)
        lastTime.overwrite(with: other.lastTime)
        lagProduct = other.lagProduct
        lagSquares = other.lagSquares
        pairs = other.pairs
    }
}

/// The normal equations of one epoch's weighted beacons, F = Σ w H Hᵀ, G = Σ w² H Hᵀ and
/// K = Σ w² s² H Hᵀ with H = (gx, gy, 1) or (gx, gy) and s² a beacon's stated model variance:
/// what ``ModelMisfit``'s consider covariance is made of. Fixed size, so that an epoch
/// allocates nothing.
struct ConsiderGeometry: Sendable {
    /// Whether H has the offset column.
    let withOffset: Bool
    private var f = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)  // xx, xy, xo, yy, yo, oo
    private var g = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    private var k = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    /// Beacons added.
    private(set) var count = 0

    init(withOffset: Bool) { self.withOffset = withOffset }

    /// Adds a beacon with gradient (gx, gy) (dB per metre), weight w (1/dB²) and the variance of
    /// its model's prediction, s² dB² (`PathLossUncertainty`; 0 when not stated).
    mutating func add(gx: Double, gy: Double, weight w: Double, modelVariance s2: Double = 0) {
        guard gx.isFinite, gy.isFinite, w.isFinite, w > 0 else { return }
        let h = (gx, gy, withOffset ? 1.0 : 0.0)
        Self.addOuterProduct(of: h, weight: w, to: &f)
        Self.addOuterProduct(of: h, weight: w * w, to: &g)
        if s2 > 0, s2.isFinite { Self.addOuterProduct(of: h, weight: w * w * s2, to: &k) }
        count += 1
    }

    /// m += v h hᵀ for the symmetric 3 × 3 m stored as (xx, xy, xo, yy, yo, oo).
    private static func addOuterProduct(
        of h: (Double, Double, Double), weight v: Double,
        to m: inout (Double, Double, Double, Double, Double, Double)
    ) {
        m.0 += v * h.0 * h.0
        m.1 += v * h.0 * h.1
        m.2 += v * h.0 * h.2
        m.3 += v * h.1 * h.1
        m.4 += v * h.1 * h.2
        m.5 += v * h.2 * h.2
    }

    /// The horizontal block of F⁻¹ (σ² G + K) F⁻¹, m²: the pooled bias spread σ² of every
    /// beacon and each one's stated model variance (zero when the beacons cannot determine the
    /// position: too few, or F singular).
    func covariance(biasVariance s2: Double) -> PositionCovariance {
        let s2 = s2.isFinite ? max(s2, 0) : 0
        guard s2 > 0 || k.0 > 0 || k.3 > 0, count >= (withOffset ? 3 : 2) else { return .zero }
        // A = F⁻¹ (symmetric), by the adjugate; the 2 × 2 case as the 3 × 3 with the offset
        // row and column set to the identity's.
        let (a, b, c, d, e, ff) = withOffset ? f : (f.0, f.1, 0, f.3, 0, 1)
        let det = a * (d * ff - e * e) - b * (b * ff - c * e) + c * (b * e - c * d)
        let scale = a * d * ff
        guard det.isFinite, det > 1e-12 * max(abs(scale), 1e-300) else { return .zero }
        let i00 = (d * ff - e * e) / det, i01 = (c * e - b * ff) / det, i02 = (b * e - c * d) / det
        let i11 = (a * ff - c * c) / det, i12 = (b * c - a * e) / det
        let m = (
            s2 * g.0 + k.0, s2 * g.1 + k.1, s2 * g.2 + k.2, s2 * g.3 + k.3, s2 * g.4 + k.4, s2 * g.5 + k.5
        )
        let (g0, g1, g2, g3, g4, g5) = withOffset ? m : (m.0, m.1, 0, m.3, 0, 0)
        // Rows 0 and 1 of F⁻¹, times G, times F⁻¹'s columns 0 and 1.
        let r0 = (i00, i01, i02), r1 = (i01, i11, i12)
        func timesG(_ r: (Double, Double, Double)) -> (Double, Double, Double) {
            (
                r.0 * g0 + r.1 * g1 + r.2 * g2,
                r.0 * g1 + r.1 * g3 + r.2 * g4,
                r.0 * g2 + r.1 * g4 + r.2 * g5
            )
        }
        let t0 = timesG(r0), t1 = timesG(r1)
        let xx = t0.0 * r0.0 + t0.1 * r0.1 + t0.2 * r0.2
        let xy = t0.0 * r1.0 + t0.1 * r1.1 + t0.2 * r1.2
        let yy = t1.0 * r1.0 + t1.1 * r1.1 + t1.2 * r1.2
        guard xx.isFinite, yy.isFinite, xy.isFinite, xx >= 0, yy >= 0 else { return .zero }
        return PositionCovariance(xx: xx, xy: xy, yy: yy)
    }
}
