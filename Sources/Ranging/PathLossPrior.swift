/// Prior belief about one beacon's path-loss model before any traffic is seen: independent
/// Gaussians on the measured power P₀ (dBm at 1 m) and the exponent n, and a scaled
/// inverse-χ² prior on the shadowing variance σ² with ``sigmaWeight`` pseudo-samples at
/// ``sigma``.
///
/// The defaults (see Docs/Guide/Calibration.md for where they come from):
/// - P₀ ± 8 dB around the plan's value: generic plan values are this far off on the real
///   sites measured (the kolakowski-flat beacons read about 12 dB above the generic −59 dBm,
///   1.5 σ), and advertised "measured power" values of commercial beacons spread by a few dB;
/// - n ± 0.5 around the plan's value: published indoor exponents run from about 1.6
///   (line of sight in corridors) to about 3.3 (through walls) (Rappaport, *Wireless
///   Communications*, 2nd ed., table 4.2), i.e. ±2 σ around 2.0–2.5;
/// - σ: 4 dB with the weight of 10 samples, a typical indoor shadowing spread that the data
///   overrule after a few tens of samples.
///
/// A prior centred on a survey calibration (`calibrate --from-traffic --calibration C`) uses
/// ``surveyed(_:)``: ± 3 dB and ± 0.3, the site-to-day variation of a survey.
public struct PathLossPrior: Sendable, Hashable, Codable {
    /// Prior mean of P₀, dBm.
    public var measuredPower: Double
    /// Prior standard deviation of P₀, dB (> 0).
    public var measuredPowerSigma: Double
    /// Prior mean of n.
    public var exponent: Double
    /// Prior standard deviation of n (> 0).
    public var exponentSigma: Double
    /// Prior guess of the shadowing standard deviation σ, dB (> 0).
    public var sigma: Double
    /// Weight of that guess, in samples (≥ 0).
    public var sigmaWeight: Double

    /// A prior from its parts.
    public init(
        measuredPower: Double, measuredPowerSigma: Double = 8, exponent: Double,
        exponentSigma: Double = 0.5, sigma: Double = PathLossModel.defaultSigma, sigmaWeight: Double = 10
    ) {
        self.measuredPower = measuredPower
        self.measuredPowerSigma = measuredPowerSigma
        self.exponent = exponent
        self.exponentSigma = exponentSigma
        self.sigma = sigma
        self.sigmaWeight = sigmaWeight
    }

    /// The generic prior centred on `model` (a plan's values): ± 8 dB, ± 0.5.
    public init(centredOn model: PathLossModel) {
        self.init(measuredPower: model.measuredPower, exponent: model.exponent, sigma: model.sigma)
    }

    /// A narrower prior centred on a surveyed model: ± 3 dB, ± 0.3, σ with 30 samples' weight.
    public static func surveyed(_ model: PathLossModel) -> PathLossPrior {
        PathLossPrior(
            measuredPower: model.measuredPower, measuredPowerSigma: 3, exponent: model.exponent,
            exponentSigma: 0.3, sigma: model.sigma, sigmaWeight: 30)
    }

    /// The prior mean as a model.
    public var model: PathLossModel {
        PathLossModel(measuredPower: measuredPower, exponent: exponent, sigma: sigma)
    }

    /// Whether every value is finite and every spread positive.
    public var isValid: Bool {
        measuredPower.isFinite && exponent.isFinite && sigma.isFinite && sigma > 0
            && measuredPowerSigma.isFinite && measuredPowerSigma > 0
            && exponentSigma.isFinite && exponentSigma > 0 && sigmaWeight.isFinite && sigmaWeight >= 0
    }
}
