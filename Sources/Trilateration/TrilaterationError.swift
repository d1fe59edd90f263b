import BeaconModel

/// Input from which no fix at all can be computed. Too few beacons is not an error: it gives a
/// fix with status ``FixStatus/fallback(_:)``.
public enum TrilaterationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No observations were given.
    case noObservations
    /// The mean RSSI of a beacon is NaN or infinite.
    case nonFiniteRSSI(BeaconIdentity)
    /// The mean RSSI of a beacon is above 0 dBm, which no Bluetooth receiver reports.
    case positiveRSSI(BeaconIdentity, rssi: Double)
    /// The sample count of a beacon is below 1.
    case invalidSampleCount(BeaconIdentity, count: Int)
    /// The path-loss model of a beacon is unusable: P₀ not finite, n not positive and finite,
    /// or σ not positive and finite.
    case invalidModel(BeaconIdentity)
    /// The position of a beacon has a NaN or infinite coordinate.
    case nonFinitePosition(BeaconIdentity)
    /// The solver's configuration is unusable; `detail` says which setting.
    case invalidConfiguration(detail: String)
    /// A finite value beyond what the solver accepts (see ``TrilaterationSolver/coordinateLimit``
    /// and the other limits beside it): `field` names it.
    case outOfRange(BeaconIdentity, field: String, value: Double, range: ClosedRange<Double>)

    public var description: String {
        switch self {
        case .noObservations:
            return "no beacon observations: pass at least one beacon heard during the fix"
        case .nonFiniteRSSI(let id):
            return "beacon \(id): mean RSSI is NaN or infinite; drop samples that are not numbers"
        case .positiveRSSI(let id, let rssi):
            return "beacon \(id): mean RSSI \(rssi) dBm is positive; RSSI must be ≤ 0 dBm (check the sign)"
        case .invalidSampleCount(let id, let count):
            return "beacon \(id): sample count \(count) < 1; pass the number of samples averaged"
        case .invalidModel(let id):
            return
                "beacon \(id): path-loss model needs finite P₀, exponent > 0 and sigma > 0; fix the plan or calibration"
        case .nonFinitePosition(let id):
            return "beacon \(id): position has a NaN or infinite coordinate; fix the floor plan"
        case .invalidConfiguration(let detail):
            return "invalid trilateration configuration: \(detail)"
        case .outOfRange(let id, let field, let value, let range):
            return
                "beacon \(id): \(field) \(value) is outside \(range.lowerBound)...\(range.upperBound); check the plan, calibration or units"
        }
    }
}
