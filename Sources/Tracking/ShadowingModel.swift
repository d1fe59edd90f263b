import Foundation

/// Time-correlated shadowing: a body or a wall between phone and beacon changes that beacon's
/// readings for seconds, so consecutive samples of one beacon share most of their error.
///
/// Each single sample's variance σ² (the beacon's σ times the learned noise scale) is split
/// into a correlated share s and a white rest,
///
///     RSSI = h(x) + Δ + bᵢ + w,   w ~ N(0, (1 − s) σ²),
///     bᵢ(t + dt) = e^{−dt/τ} bᵢ(t) + N(0, s σ² (1 − e^{−2dt/τ}))      (Gauss–Markov, variance s σ²)
///
/// with one bias state bᵢ per beacon heard (Gudmundson, Electronics Letters 27(23), 1991:
/// exponentially correlated shadowing; for a walker, distance becomes time). The filter then
/// neither follows a run of biased samples as if it were movement nor shrinks its covariance
/// as if the samples were independent.
///
/// Measured on the two real data sets in Docs/Evidence/Accuracy.md (residuals of single samples against
/// the true position): the lag-1 s autocorrelation is 0.2 (office walks) and 0.63 (robot in a
/// flat), decaying with time constants of about 4 s and 8–10 s. The defaults sit between them.
public struct ShadowingModel: Sendable, Hashable, Codable {
    /// The correlated share s of each sample's variance, 0 ≤ s < 1; 0 turns the bias states off
    /// (every sample independent). Default 0.4.
    public var correlatedShare: Double
    /// Correlation time τ of the bias, seconds, 0.01…3600. Default 5.
    public var correlationTime: Double
    /// Most bias states carried at once; a beacon beyond them is treated with its bias
    /// marginalised (its whole σ² as white noise). The beacon heard least recently gives its
    /// state up first. Default 16.
    public var maximumStates: Int

    /// A shadowing model with the documented defaults.
    public init(correlatedShare: Double = 0.4, correlationTime: Double = 5, maximumStates: Int = 16) {
        self.correlatedShare = correlatedShare
        self.correlationTime = correlationTime
        self.maximumStates = maximumStates
    }

    /// No bias states: every sample's error independent (the plain tracker's model).
    public static let independent = ShadowingModel(correlatedShare: 0, correlationTime: 5, maximumStates: 0)

    /// The bias correlation over `dt` seconds, e^{−dt/τ}.
    @inline(__always)
    func correlation(over dt: Double) -> Double { Self.correlation(over: dt, time: correlationTime) }

    /// e^{−dt/τ} for a correlation time τ = `time` seconds.
    @inline(__always)
    static func correlation(over dt: Double, time: Double) -> Double { Foundation.exp(-dt / time) }

    /// Throws `invalidConfiguration` naming the first value out of range.
    public func validate() throws(TrackingError) {
        guard correlatedShare.isFinite, correlatedShare >= 0, correlatedShare < 1 else {
            throw .invalidConfiguration(field: "shadowing.correlatedShare", value: correlatedShare)
        }
        guard correlationTime.isFinite, correlationTime >= 0.01, correlationTime <= 3600 else {
            throw .invalidConfiguration(field: "shadowing.correlationTime", value: correlationTime)
        }
        guard maximumStates >= 0, maximumStates <= 64 else {
            throw .invalidConfiguration(field: "shadowing.maximumStates", value: Double(maximumStates))
        }
    }
}
