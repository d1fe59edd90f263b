/// What a calibration learned from traffic states beside its models, for the engine that
/// positions with them: the models' standard errors, the shadowing a place keeps, the loss of
/// the walls the plan gives none, and the spread of the devices' offsets.
extension PositioningEngine.Configuration {
    /// Takes the settings a learned calibration states (a `TrafficCalibration.Result`, or a
    /// calibration file written from one) into this configuration, as `indoorpos locate
    /// --self-calibrate` and `--calibration` do:
    /// - ``modelUncertainty`` = `uncertainty` (the beacons whose models carry standard errors);
    /// - ``placeShadowingVariance`` = `placeShadowingVariance` dB² (0 when nil);
    /// - ``wallAttenuation`` = `wallAttenuation` dB per wall (nil: the standard loss);
    /// - ``deviceOffset`` = an estimated offset with prior standard deviation
    ///   `deviceOffsetSigma` dB, unless the configuration already sets one (a known offset or
    ///   a prior of its own wins) or `deviceOffsetSigma` is nil.
    public mutating func adoptLearnedSettings(
        uncertainty: [BeaconIdentity: PathLossUncertainty], placeShadowingVariance: Double?,
        wallAttenuation: Double?, deviceOffsetSigma: Double?
    ) {
        modelUncertainty = uncertainty
        self.placeShadowingVariance = placeShadowingVariance ?? 0
        self.wallAttenuation = wallAttenuation
        if deviceOffset == nil, let deviceOffsetSigma {
            deviceOffset = DeviceOffsetModel(priorSigma: deviceOffsetSigma)
        }
    }
}

extension TrafficCalibration.Result {
    /// The learned beacons' model uncertainties (their standard errors of P₀ and n, and the
    /// errors' correlation), for ``PositioningEngine/Configuration/modelUncertainty``; beacons
    /// kept at the starting values are not named.
    public var uncertainties: [BeaconIdentity: PathLossUncertainty] {
        var result: [BeaconIdentity: PathLossUncertainty] = [:]
        for estimate in estimates where estimate.source == .traffic { result[estimate.beacon] = estimate.uncertainty }
        return result
    }

    /// `base` with what the learning found beside the models
    /// (``PositioningEngine/Configuration/adoptLearnedSettings(uncertainty:placeShadowingVariance:wallAttenuation:deviceOffsetSigma:)``):
    /// the models' standard errors, ``placeShadowingVariance``, ``wallAttenuation`` and the
    /// devices' offset prior (``deviceOffsetSpread``), so that positioning with ``models``
    /// reports the radius and counts the walls as `indoorpos locate --self-calibrate` does.
    ///
    /// ```swift
    /// let result = try TrafficCalibration.learn(samples, plan: plan)
    /// let reports = try PositioningEngine.locate(
    ///     samples, plan: plan, calibration: result.models, configuration: result.configuration())
    /// ```
    public func configuration(_ base: PositioningEngine.Configuration = .init()) -> PositioningEngine.Configuration {
        var configuration = base
        configuration.adoptLearnedSettings(
            uncertainty: uncertainties, placeShadowingVariance: placeShadowingVariance,
            wallAttenuation: wallAttenuation, deviceOffsetSigma: deviceOffsetSpread?.sigma)
        return configuration
    }
}
