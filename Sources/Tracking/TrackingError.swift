import BeaconModel
import Ranging

/// Why the tracker or the floor estimator refused an input. Every case leaves the state as it
/// was before the call, so a caller may log the error and go on with the next input.
public enum TrackingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// An input value is NaN or infinite (`field` names it).
    case nonFiniteInput(field: String)
    /// A measurement or prediction is older than the state (`time` < `stateTime`, seconds).
    /// The tracker keeps no reorder buffer: sort the samples of an epoch by time first.
    case timestampBeforeState(time: Double, stateTime: Double)
    /// A covariance given with a measurement is not symmetric positive-definite (m²).
    case invalidCovariance(xx: Double, xy: Double, yy: Double)
    /// An RSSI value is not a plausible received power (it must be negative dBm).
    case implausibleRSSI(Double)
    /// A path-loss model parameter is out of range (σ must be > 0 dB, n > 0).
    case invalidPathLossModel(PathLossModel)
    /// A configuration value is out of range (`field` names it, `value` is what was given).
    case invalidConfiguration(field: String, value: Double)
    /// The covariance lost positive-definiteness (numerically); the update was not applied.
    case covarianceNotPositiveDefinite
    /// An RTS smoother was given no recorded steps.
    case emptyHistory
    /// A coordinate or elevation (metres) beyond ±`FloorPlan.coordinateLimit` (1,000 km), or a
    /// time (seconds) beyond ±``TrackerConfiguration/timeLimit``: that far out squared distances,
    /// a prediction over the gap and a mixture's spread overflow. `limit` is the bound.
    case outOfRange(field: String, value: Double, limit: Double)

    public var description: String {
        switch self {
        case .nonFiniteInput(let field):
            return "\(field) is NaN or infinite; drop the sample or fix its source"
        case let .timestampBeforeState(time, stateTime):
            return
                "timestamp \(time) s is older than the track (\(stateTime) s); sort samples by time before feeding them"
        case let .invalidCovariance(xx, xy, yy):
            return
                "position covariance [[\(xx), \(xy)], [\(xy), \(yy)]] m² is not positive-definite; give variances > 0 and |xy| < √(xx·yy)"
        case .implausibleRSSI(let rssi):
            return "RSSI \(rssi) dBm is not a received power; values must be negative (0 and 127 mean 'no reading')"
        case .invalidPathLossModel(let model):
            return
                "path-loss model (P₀ \(model.measuredPower) dBm, n \(model.exponent), σ \(model.sigma) dB) is invalid; n and σ must be positive and finite"
        case let .invalidConfiguration(field, value):
            return "tracking configuration \(field) = \(value) is out of range; see the documentation of \(field)"
        case .covarianceNotPositiveDefinite:
            return "the track covariance lost positive-definiteness; re-initialise the tracker from a fresh fix"
        case .emptyHistory:
            return
                "the smoother was given no steps; enable recordsHistory in the tracker configuration and feed it first"
        case let .outOfRange(field, value, limit):
            return
                "\(field) = \(value) is beyond ±\(limit); use the plan's metric frame and seconds since 1970 or since the start"
        }
    }
}
