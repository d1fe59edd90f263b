/// Settings of the engine's online learning of path-loss models from its own traffic (see
/// ``PositioningEngine/Configuration/learning``).
///
/// With learning on, every tracked epoch whose position is well determined (accuracy at most
/// ``maximumAccuracy``) feeds its samples, with the tracked position, its covariance and the
/// device's estimated offset, to a `SiteCalibrator`. Every ``updateInterval`` seconds of
/// input time the engine takes the calibrator's estimates for the beacons it has learned (at
/// least `SiteCalibrator.Settings.minimumSamples` samples) and uses them from then on, for new
/// and running devices alike, each with its standard errors as the model's stated uncertainty
/// (the radius considers them, as ``PositioningEngine/Configuration/modelUncertainty`` would).
/// The engine stays deterministic: updates happen at fixed input times, in push order.
///
/// Online learning pairs samples with the causal (filtered) position of their epoch, which is
/// less certain than the smoothed one the batch learner uses; the calibrator weighs each sample
/// by that uncertainty. With a lag (``PositioningEngine/Configuration/lag``) it pairs them with
/// the refined position instead, as the epoch's report leaves the lag. Off by default: it helps on a site whose plan holds generic values (see
/// Docs/Evidence/CalibrationStudies.md for the measurements), and has nothing to add to a surveyed calibration.
public struct OnlineLearning: Sendable, Hashable, Codable {
    /// Seconds of input time between two adoptions of the learned models (default 60).
    public var updateInterval: Double
    /// Epochs whose tracked accuracy (1-σ radius) is worse than this teach nothing, metres
    /// (default 4).
    public var maximumAccuracy: Double
    /// How the calibrator weighs samples and when a beacon counts as learned.
    public var calibrator: SiteCalibrator.Settings

    /// Settings from their values (defaults as documented on each property).
    public init(
        updateInterval: Double = 60, maximumAccuracy: Double = 4,
        calibrator: SiteCalibrator.Settings = .init()
    ) {
        self.updateInterval = updateInterval
        self.maximumAccuracy = maximumAccuracy
        self.calibrator = calibrator
    }

    func validate() throws(PositioningError) {
        guard updateInterval.isFinite, updateInterval > 0 else {
            throw .invalidConfiguration(
                "learning.updateInterval must be a positive number of seconds, got \(updateInterval)")
        }
        guard maximumAccuracy.isFinite, maximumAccuracy > 0 else {
            throw .invalidConfiguration(
                "learning.maximumAccuracy must be a positive number of metres, got \(maximumAccuracy)")
        }
        guard calibrator.minimumSamples >= 0, calibrator.huberThreshold.isFinite, calibrator.huberThreshold > 0,
            calibrator.minimumDistance.isFinite, calibrator.minimumDistance > 0
        else {
            throw .invalidConfiguration(
                "learning.calibrator: minimumSamples ≥ 0, huberThreshold > 0, minimumDistance > 0")
        }
    }
}
