extension FixStatus: CustomStringConvertible {
    /// The case as code would write it, without module or type names: `converged`,
    /// `iterationLimit`, `fallback(unsolved)`, `degenerate(rank: 1)`.
    public var description: String {
        switch self {
        case .converged: return "converged"
        case .iterationLimit: return "iterationLimit"
        case .fallback(let reason): return "fallback(\(reason))"
        case .degenerate(let rank): return "degenerate(rank: \(rank))"
        }
    }
}

extension FallbackReason: CustomStringConvertible {
    /// The case as code would write it: `unsolved`, `coincidentBeacons`,
    /// `tooFewBeacons(available: 2, required: 3)`.
    public var description: String {
        switch self {
        case .tooFewBeacons(let available, let required):
            return "tooFewBeacons(available: \(available), required: \(required))"
        case .coincidentBeacons: return "coincidentBeacons"
        case .unsolved: return "unsolved"
        }
    }
}

extension RejectionReason: CustomStringConvertible {
    /// `inconsistentResidual(residual: 9.1, normalized: 3.2)`.
    public var description: String {
        switch self {
        case .inconsistentResidual(let residual, let normalized):
            return "inconsistentResidual(residual: \(residual), normalized: \(normalized))"
        }
    }
}

extension RejectedBeacon: CustomStringConvertible {
    /// `UUID:major:minor: reason`.
    public var description: String { "\(identity): \(reason)" }
}
