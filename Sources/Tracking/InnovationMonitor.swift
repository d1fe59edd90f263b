/// What a tracker learns from its RSSI innovations: the running mean of the normalised
/// innovation squared ν²/S (about 1 while the filter is consistent, high for a track that sits
/// at a wrong place), the noise scale λ, and the count of samples rejected in a row.
struct InnovationMonitor: Sendable, Hashable {
    /// Exponentially weighted mean of ν²/S, each capped at ``nisCap``.
    var meanNIS = 1.0
    /// RSSI samples since the track started or was last reset.
    var samplesSinceReset = 0
    /// RSSI samples rejected in a row.
    var rejections = 0
    /// The learned scale λ ≥ 1 of every sample's variance σ².
    var noiseScale = 1.0

    /// Weight of the newest sample in the running mean of ν²/S (about the last 64 samples).
    static let nisWeight = 1.0 / 64
    /// Weight of one sample in the noise-scale average (about the last 256 samples).
    static let noiseScaleWeight = 1.0 / 256
    /// Samples the running mean needs before it may declare the track lost.
    static let nisWindow = 64
    /// Cap on one sample's ν²/S in the running mean, so that one outlier cannot reset the track.
    static let nisCap = 16.0

    /// Takes one sample's ν²/S into the running mean.
    mutating func record(nis: Double) {
        meanNIS += (min(nis, Self.nisCap) - meanNIS) * Self.nisWeight
        samplesSinceReset += 1
    }

    /// Whether the running mean says the track is lost (see
    /// ``TrackerConfiguration/lostInnovationLevel``).
    func isInconsistent(level: Double) -> Bool {
        samplesSinceReset >= Self.nisWindow && meanNIS > level
    }

    /// Moves λ towards one accepted sample's estimate (ν² − H P Hᵀ)/σ², kept in [1, maximum]:
    /// `predictedVariance` is the part of S that λ does not scale, `sigma2` the part it does
    /// divided by λ.
    mutating func learnNoiseScale(
        innovation nu: Double, predictedVariance hph: Double, sigma2: Double,
        maximum: Double
    ) {
        guard maximum > 1, sigma2 > 0 else { return }
        let estimate = (nu * nu - hph) / sigma2
        let updated = noiseScale + (estimate - noiseScale) * Self.noiseScaleWeight
        noiseScale = min(max(updated, 1), maximum)
    }

    /// Forgets the running mean and the rejections (after a reset or restart); λ is kept.
    mutating func restart() {
        meanNIS = 1
        samplesSinceReset = 0
        rejections = 0
    }
}
