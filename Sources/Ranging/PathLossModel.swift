import BeaconModel
import Foundation

/// The log-distance path-loss model with log-normal shadowing:
///
///     RSSI(d) = P₀ − 10 n log₁₀(d / 1 m) + X,   X ~ N(0, σ²)
///
/// where P₀ is the measured power (RSSI at 1 m, dBm), n the path-loss exponent and σ the
/// shadowing standard deviation (dB). Distances are metres.
public struct PathLossModel: Sendable, Hashable, Codable {
    /// RSSI at 1 m, dBm (P₀).
    public var measuredPower: Double
    /// Path-loss exponent n (2 in free space, 1.5–4 indoors).
    public var exponent: Double
    /// Shadowing standard deviation σ, dB (4 dB is typical indoors).
    public var sigma: Double

    /// A model from its three parameters.
    public init(measuredPower: Double, exponent: Double, sigma: Double = PathLossModel.defaultSigma) {
        self.measuredPower = measuredPower
        self.exponent = exponent
        self.sigma = sigma
    }

    /// The model of a resolved plan beacon, with shadowing `sigma` (dB).
    public init(_ beacon: ResolvedBeacon, sigma: Double = PathLossModel.defaultSigma) {
        self.init(measuredPower: beacon.measuredPower, exponent: beacon.pathLossExponent, sigma: sigma)
    }

    /// Shadowing σ assumed when none is calibrated, dB.
    public static let defaultSigma = 4.0

    /// The smallest shadowing σ used, dB: 0.5. Calibrations write no less, and the engine raises
    /// a smaller one (or `sampleSigma`) to it. A σ near 0 (noise-free or long-averaged survey
    /// readings) makes each beacon's weight m/σ² enormous, so any real reading looks like an
    /// outlier and the tracker refuses every epoch; RSSI is reported in whole dB or coarser,
    /// so 0.5 dB is below any real scatter.
    public static let minimumSigma = 0.5

    /// The slope constant 10 n / ln 10, dB per unit of ln d: RSSI(d) = P₀ − k ln d.
    @inlinable
    public var logSlope: Double { 10 * exponent / M_LN10 }

    /// Expected (mean) RSSI at `distance` metres, dBm. Distances below 1 cm are clamped to 1 cm.
    @inlinable
    public func expectedRSSI(atDistance distance: Double) -> Double {
        measuredPower - logSlope * Foundation.log(max(distance, 0.01))
    }

    /// Expected (mean) RSSI at the squared distance `squaredDistance` (m²), dBm: the same as
    /// ``expectedRSSI(atDistance:)`` at its square root, without taking it (for inner loops).
    @inlinable
    public func expectedRSSI(squaredDistance: Double) -> Double {
        measuredPower - logSlope * 0.5 * Foundation.log(max(squaredDistance, 1e-4))
    }

    /// Derivative of the expected RSSI with respect to distance, dBm per metre (negative).
    @inlinable
    public func rssiSlope(atDistance distance: Double) -> Double {
        -logSlope / max(distance, 0.01)
    }
}
