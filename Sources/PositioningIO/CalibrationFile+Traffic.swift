extension CalibrationFile.Fit {
    /// The fit of a model learned from traffic: `method` is `traffic`, or `plan` for a beacon
    /// kept at its prior's values (too few samples); `count` is the samples it learned from.
    /// Rounded like ``init(_:)`` (0.01 dB, 0.0001 in n).
    public init(_ learned: LearnedPathLoss) {
        self.init(
            measuredPower: Self.round(learned.model.measuredPower, 100),
            pathLossExponent: Self.round(learned.model.exponent, 10_000),
            sigma: Self.round(learned.model.sigma, 100),
            count: learned.count,
            measuredPowerStandardError: Self.round(learned.measuredPowerStandardError, 10_000),
            pathLossExponentStandardError: Self.round(learned.exponentStandardError, 100_000),
            method: learned.source.rawValue, standardErrorCorrelation: Self.round(learned.correlation, 10_000))
    }
}

extension CalibrationFile {
    /// The calibration JSON of models learned from traffic: one entry per plan beacon (learned,
    /// or kept at the plan's values and marked `"method": "plan"`), and `all` the model fitted to
    /// every beacon's samples together (or, with no samples, the mean prior).
    /// `placeShadowingVariance` (dB², `TrafficCalibration.Result.placeShadowingVariance`) is
    /// written as `placeShadowingSigma`, and `deviceOffsetSigma` (dB, the devices' offset prior)
    /// as `deviceOffsetSigma`, and `wallAttenuation` (dB per wall, the loss learned for the walls
    /// the plan gives none) as `wallAttenuation`, each rounded to 0.01 dB (left out when not a
    /// valid value).
    public init(
        learned: [LearnedPathLoss], pooled: LearnedPathLoss?, placeShadowingVariance: Double? = nil,
        deviceOffsetSigma: Double? = nil, wallAttenuation: Double? = nil
    ) {
        let generic = PlanDefaults()
        self.init(
            beacons: learned.map { BeaconFit(beacon: $0.beacon, fit: Fit($0)) },
            all: (pooled ?? learned.first).map(Fit.init)
                ?? Fit(
                    measuredPower: generic.measuredPower, pathLossExponent: generic.pathLossExponent,
                    sigma: PathLossModel.defaultSigma, count: 0, method: "plan"),
            placeShadowingSigma: placeShadowingVariance.flatMap { v in
                v.isFinite && v >= 0 ? Fit.round(min(v.squareRoot(), 30), 100) : nil
            },
            deviceOffsetSigma: deviceOffsetSigma.flatMap { sigma in
                let rounded = Fit.round(sigma, 100)
                return DeviceOffsetModel.isValidPriorSigma(rounded) ? rounded : nil
            },
            wallAttenuation: wallAttenuation.flatMap { loss in
                let rounded = Fit.round(loss, 100)
                return FloorPlan.wallAttenuationRange.contains(rounded) ? rounded : nil
            })
    }

    /// ``placeShadowingSigma`` squared, dB², for
    /// `PositioningEngine.Configuration.placeShadowingVariance` (0 when the file has none).
    public var placeShadowingVariance: Double { placeShadowingSigma.map { $0 * $0 } ?? 0 }
}

extension CalibrationFile {
    /// The models to locate `plan`'s beacons with: ``model(for:)`` for each, except beacons
    /// whose entry says `"method": "plan"` (kept at the plan's values by learning from traffic
    /// for want of samples). Those are left out, so that the engine treats them, and a file in
    /// which every entry says so, exactly as the plan alone.
    public func models(for plan: FloorPlan) -> [BeaconIdentity: PathLossModel] {
        let keptAtPlan = Set(
            (beacons ?? []).filter { $0.fit.method == LearnedPathLoss.Source.plan.rawValue }.map(\.beacon))
        let fits = fitsByBeacon
        var models: [BeaconIdentity: PathLossModel] = [:]
        for beacon in plan.beacons where !keptAtPlan.contains(beacon.identity) {
            if let resolved = plan.resolvedBeacon(beacon.identity) {
                models[beacon.identity] = model(for: resolved, own: fits[beacon.identity])
            }
        }
        return models
    }
}

extension CalibrationFile {
    /// How uncertain the models of ``models(for:)`` are, for
    /// `PositioningEngine.Configuration.modelUncertainty`: each beacon fit of the file that
    /// ``models(for:)`` uses and that states both `measuredPowerStandardError` and
    /// `pathLossExponentStandardError`, with their `standardErrorCorrelation` (taken as 0 when a
    /// file does not state it, which overstates the prediction's variance where the errors of P₀
    /// and n offset each other: the radius errs wide).
    public func uncertainties(for plan: FloorPlan) -> [BeaconIdentity: PathLossUncertainty] {
        var result: [BeaconIdentity: PathLossUncertainty] = [:]
        // The fits ``models(for:)`` uses (each beacon's first): plan beacons not kept at the
        // plan's values.
        for (beacon, fit) in fitsByBeacon
        where fit.method != LearnedPathLoss.Source.plan.rawValue && plan.resolvedBeacon(beacon) != nil {
            guard let p = fit.measuredPowerStandardError, let n = fit.pathLossExponentStandardError,
                p.isFinite, n.isFinite, p >= 0, n >= 0
            else { continue }
            result[beacon] = PathLossUncertainty(
                measuredPowerSigma: p, exponentSigma: n, correlation: fit.standardErrorCorrelation ?? 0)
        }
        return result
    }
}

extension CalibrationFile {
    /// Sets on `configuration` what the file states beside its models for `plan`, as
    /// `indoorpos locate --calibration` does
    /// (`PositioningEngine.Configuration.adoptLearnedSettings`): ``uncertainties(for:)``,
    /// ``placeShadowingVariance``, ``wallAttenuation``, and ``deviceOffsetSigma`` as the offset
    /// prior unless `configuration` already sets the device offset.
    ///
    /// ```swift
    /// let file = try CalibrationFile.load(path: "site.json", for: plan)
    /// var configuration = PositioningEngine.Configuration()
    /// file.configure(&configuration, for: plan)
    /// var engine = try PositioningEngine(plan: plan, calibration: file.models(for: plan), configuration: configuration)
    /// ```
    public func configure(_ configuration: inout PositioningEngine.Configuration, for plan: FloorPlan) {
        configuration.adoptLearnedSettings(
            uncertainty: uncertainties(for: plan), placeShadowingVariance: placeShadowingVariance,
            wallAttenuation: wallAttenuation, deviceOffsetSigma: deviceOffsetSigma)
    }
}
