import BeaconModel

/// A beacon left out of a fix, and why.
public struct RejectedBeacon: Sendable, Hashable, Codable {
    /// The beacon's identity.
    public var identity: BeaconIdentity
    /// Why it was left out.
    public var reason: RejectionReason

    /// A rejected beacon.
    public init(identity: BeaconIdentity, reason: RejectionReason) {
        self.identity = identity
        self.reason = reason
    }
}

/// Why a beacon was left out of a fix.
public enum RejectionReason: Sendable, Hashable {
    /// Its residual is inconsistent with the other beacons: with it the weighted residual sum
    /// failed the χ² test, and leaving it out gave the smallest remaining sum. Typical causes:
    /// the beacon was moved, is spoofed, or its signal is shadowed by a body. `residual` is the
    /// residual it had in the fix that still included it (dB for maximum likelihood, metres for
    /// range least squares); `normalized` is the same divided by its standard deviation.
    case inconsistentResidual(residual: Double, normalized: Double)
}
