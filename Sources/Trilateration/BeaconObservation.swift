import BeaconModel
import Foundation
import Ranging

/// What the solver knows about one beacon during one fix: where it is, how its signal decays,
/// and the RSSI heard from it.
///
/// The mean RSSI of `count` samples is a sufficient statistic for the position under the
/// log-normal shadowing model (the samples' spread carries no information about where the
/// phone is), so a fix costs O(beacons), not O(samples). The mean's variance is σ²/count.
public struct BeaconObservation: Sendable, Hashable, Codable {
    /// The beacon's identity, reported back in ``Fix/usedBeacons`` and ``Fix/rejectedBeacons``.
    public var identity: BeaconIdentity
    /// Absolute position of the beacon in the building frame, metres.
    public var position: Point3D
    /// Level of the floor the beacon is on.
    public var level: Int
    /// Path-loss model of the beacon: P₀ (dBm at 1 m), exponent n, shadowing σ (dB).
    public var model: PathLossModel
    /// Mean of the RSSI samples, dBm (must be finite and not positive).
    public var meanRSSI: Double
    /// Number of samples averaged into ``meanRSSI`` (at least 1).
    public var count: Int

    /// An observation from its parts.
    /// - Parameters:
    ///   - identity: the beacon's identity.
    ///   - position: absolute position, metres.
    ///   - level: the beacon's floor level.
    ///   - model: the path-loss model (P₀ dBm, n, σ dB).
    ///   - meanRSSI: mean RSSI, dBm.
    ///   - count: number of samples in the mean.
    public init(
        identity: BeaconIdentity, position: Point3D, level: Int, model: PathLossModel,
        meanRSSI: Double, count: Int = 1
    ) {
        self.identity = identity
        self.position = position
        self.level = level
        self.model = model
        self.meanRSSI = meanRSSI
        self.count = count
    }

    /// An observation of a resolved plan beacon.
    /// - Parameters:
    ///   - beacon: the beacon with its absolute position and path-loss parameters.
    ///   - sigma: shadowing standard deviation, dB.
    ///   - meanRSSI: mean RSSI, dBm.
    ///   - count: number of samples in the mean.
    public init(
        _ beacon: ResolvedBeacon, sigma: Double = PathLossModel.defaultSigma,
        meanRSSI: Double, count: Int = 1
    ) {
        self.init(
            identity: beacon.identity, position: beacon.position, level: beacon.level,
            model: PathLossModel(beacon, sigma: sigma), meanRSSI: meanRSSI, count: count)
    }

    /// The median distance estimate d̂ = 10^((P₀ − RSSI̅)/(10 n)), metres (the distance at which
    /// the model expects the observed mean; under log-normal shadowing it is the median, not the
    /// mean, of the distance given the RSSI).
    public var medianDistance: Double {
        model.medianDistance(forRSSI: meanRSSI)
    }

    /// Standard deviation of ``medianDistance`` to first order, metres:
    /// σ_d ≈ d̂ · ln 10 · σ / (10 n √count).
    public var distanceSigma: Double {
        medianDistance * model.logDistanceSigma(count: count)
    }
}
