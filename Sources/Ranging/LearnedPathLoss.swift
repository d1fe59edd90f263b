import BeaconModel

/// One beacon's path-loss model as learned from traffic, with its uncertainty.
public struct LearnedPathLoss: Sendable, Hashable, Codable {
    /// Where the values come from.
    public enum Source: String, Sendable, Hashable, Codable {
        /// Learned from traffic (the posterior mean).
        case traffic
        /// Too few usable samples: the prior's values (the plan's, or the given calibration's).
        case plan
    }

    /// The beacon.
    public var beacon: BeaconIdentity
    /// The model in force: the posterior mode for ``Source/traffic``, the prior's mean for
    /// ``Source/plan``.
    public var model: PathLossModel
    /// Posterior standard deviation of P₀, dB (the prior's for ``Source/plan``).
    public var measuredPowerStandardError: Double
    /// Posterior standard deviation of n (the prior's for ``Source/plan``).
    public var exponentStandardError: Double
    /// Posterior correlation of P₀ and n, −1...1.
    public var correlation: Double
    /// Samples that reached the beacon's statistics.
    public var count: Int
    /// Their effective number after the robust and position weights (Σω).
    public var effectiveCount: Double
    /// The prior it was learned against.
    public var prior: PathLossPrior
    /// Whether the values are learned or kept from the prior.
    public var source: Source

    /// A learned model from its parts.
    public init(
        beacon: BeaconIdentity, model: PathLossModel, measuredPowerStandardError: Double,
        exponentStandardError: Double, correlation: Double, count: Int, effectiveCount: Double,
        prior: PathLossPrior, source: Source
    ) {
        self.beacon = beacon
        self.model = model
        self.measuredPowerStandardError = measuredPowerStandardError
        self.exponentStandardError = exponentStandardError
        self.correlation = correlation
        self.count = count
        self.effectiveCount = effectiveCount
        self.prior = prior
        self.source = source
    }

    /// The model's uncertainty as its standard errors and their correlation state it, for the
    /// radius's consider term (`PathLossUncertainty`).
    public var uncertainty: PathLossUncertainty {
        PathLossUncertainty(
            measuredPowerSigma: measuredPowerStandardError, exponentSigma: exponentStandardError,
            correlation: correlation)
    }

    /// How many prior standard deviations the learned exponent lies from the prior's mean.
    public var exponentShiftInPriorSigmas: Double {
        (model.exponent - prior.exponent) / prior.exponentSigma
    }
}
