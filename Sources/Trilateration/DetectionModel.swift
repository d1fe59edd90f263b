import Foundation

/// The probability that a scan hears a beacon of the plan, as a logistic function of the
/// distance, of the phone's RSSI offset and of the scan itself:
///
///     P(heard | d, Δ, u) = 1 / (1 + e^−z),   z = a + b ln d + c Δ + u,   u ~ N(0, ψ²)
///
/// with d the distance from the phone to the beacon in metres, Δ the common RSSI offset of
/// the scan against the path-loss models in dB (a phone that reads stronger, Δ > 0, hears
/// more) and u the scan's own propensity to hear, shared by all its beacons (a short scan, a
/// busy radio: a logistic model with a random intercept per scan). Without u the beacons of
/// one scan would count as independent evidence, and a scan that heard one beacon of twenty
/// would say "far from the other nineteen" nineteen times over; with it, hearing few beacons
/// is largely put down to the scan.
///
/// It is the evidence that the ``TrilaterationSolver/Fallback/detectionPosterior`` fallback
/// takes from the beacons that were *not* heard. Where a beacon is heard only when near, b is
/// strongly negative and ψ small; where beacons are heard or missed almost regardless of
/// distance, b is near 0 and non-detections say little. Neither can be read off a plan, so the
/// curve is learned from the site's own determined fixes (``DetectionScans``), which need no
/// truth.
public struct DetectionModel: Sendable, Hashable, Codable {
    /// a, the log-odds of hearing a beacon 1 m away at offset 0.
    public var intercept: Double
    /// b, per unit of ln d (metres); at most 0 when learned (a farther beacon is not more
    /// likely heard).
    public var logDistanceSlope: Double
    /// c, per dB of the phone's offset; at least 0 when learned.
    public var offsetSlope: Double
    /// ψ, the standard deviation of a scan's propensity u (log-odds), at least
    /// ``minimumScanSpread``.
    public var scanSpread: Double

    /// The smallest ψ used (0.01: scans alike).
    public static let minimumScanSpread = 0.01

    /// A model from its coefficients (ψ raised to ``minimumScanSpread`` if below).
    public init(intercept: Double, logDistanceSlope: Double, offsetSlope: Double, scanSpread: Double) {
        self.intercept = intercept
        self.logDistanceSlope = logDistanceSlope
        self.offsetSlope = offsetSlope
        self.scanSpread = max(scanSpread, Self.minimumScanSpread)
    }

    /// Whether every coefficient is a finite number and ψ is positive.
    public var isFinite: Bool {
        intercept.isFinite && logDistanceSlope.isFinite && offsetSlope.isFinite && scanSpread.isFinite
            && scanSpread > 0
    }

    /// z = a + b ln d + c Δ, the log-odds of hearing the beacon for a typical scan (u = 0;
    /// `logDistance` = ln d, d in metres; `offset` Δ in dB).
    @inlinable
    public func logOdds(logDistance: Double, offset: Double) -> Double {
        intercept + logDistanceSlope * logDistance + offsetSlope * offset
    }

    /// P(heard) at `distance` metres and offset `offset` dB, for a typical scan (u = 0).
    public func probability(distance: Double, offset: Double = 0) -> Double {
        1 / (1 + Foundation.exp(-logOdds(logDistance: Foundation.log(max(distance, 1e-3)), offset: offset)))
    }

    /// log(1 − P) = −log(1 + e^z) for log-odds z, without overflow for large |z|.
    @inlinable
    static func logMissProbability(logOdds z: Double) -> Double {
        z > 0 ? -z - Foundation.log1p(Foundation.exp(-z)) : -Foundation.log1p(Foundation.exp(z))
    }
}
