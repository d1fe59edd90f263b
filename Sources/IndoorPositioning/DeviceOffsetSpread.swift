/// How far the RSSI offsets of a traffic's devices spread around their average phone, learned
/// from the traffic itself (``TrafficCalibration``): the prior standard deviation to position
/// those devices with after learning their models (an empirical-Bayes prior; `locate
/// --self-calibrate` uses it unless `--device-offset-sigma` or `--device-offset` is given).
///
/// The method of moments over the devices' unshrunk mean residuals mᵢ against the learned
/// models (each with variance vᵢ = 1/Σ 1/σⱼ² over its own samples): with s² the mᵢ's sample
/// variance over the M devices heard and v̄ the mean vᵢ, τ̂² = max(0, s² − v̄). The prior is
/// ``sigma`` = √(τ̂² + SE), SE = s² √(2/(M − 1)) the standard error of s² for normal mᵢ, so that
/// a few devices never make it narrower than they support; it is kept within ``minimumSigma``
/// and ``maximumSigma``.
public struct DeviceOffsetSpread: Sendable, Hashable {
    /// √(τ̂² + SE), dB: the prior standard deviation of a device's offset.
    public var sigma: Double
    /// The method-of-moments estimate τ̂ of the offsets' spread, dB.
    public var estimate: Double
    /// The devices heard (M).
    public var devices: Int

    /// The smallest ``sigma``, dB: a numerical floor for traffic whose devices all read alike.
    public static let minimumSigma = 0.1
    /// The largest ``sigma``, dB: the engine's prior for a phone of unknown make on an
    /// uncalibrated plan (`PositioningEngine.Configuration.uncalibratedOffsetSigma`, 10 dB).
    /// Phones differ by up to about ±10 dB; a wider spread says more about traffic the models
    /// do not fit than about phones.
    public static let maximumSigma = PositioningEngine.Configuration.uncalibratedOffsetSigma

    /// The spread from each device's Σ rᵢ/σᵢ² (`sums`, dB⁻¹) and Σ 1/σᵢ² (`weights`, dB⁻²), one
    /// entry per device; devices without samples (weight 0) are left out. Nil with fewer than two
    /// devices heard, or when a value is not finite.
    public init?(sums: [Double], weights: [Double]) {
        var means: [Double] = []
        var meanVariance = 0.0
        for (sum, weight) in zip(sums, weights) where weight > 0 && weight.isFinite && sum.isFinite {
            means.append(sum / weight)
            meanVariance += 1 / weight
        }
        guard means.count >= 2 else { return nil }
        let m = Double(means.count)
        meanVariance /= m
        let centre = means.reduce(0, +) / m
        let s2 = means.reduce(0) { $0 + ($1 - centre) * ($1 - centre) } / (m - 1)
        let tau2 = max(0, s2 - meanVariance)
        let sigma = (tau2 + s2 * (2 / (m - 1)).squareRoot()).squareRoot()
        guard sigma.isFinite, tau2.isFinite else { return nil }
        self.sigma = min(max(sigma, Self.minimumSigma), Self.maximumSigma)
        estimate = tau2.squareRoot()
        devices = means.count
    }
}
