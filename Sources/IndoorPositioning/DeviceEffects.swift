/// Per-device RSSI offsets as random effects with mean zero across the devices seen: the
/// gauge of ``TrafficCalibration``.
///
/// A common shift of every beacon's P₀ and the opposite shift of every device's offset explain
/// the same data. The learner fixes it by making the devices' offsets average zero (weighted by
/// how much each device was heard), so the learned P₀ describe the average phone of the
/// traffic, and each device's offset is how far it reads from that average. With one device the
/// offset is zero and its reading level goes into the P₀.
///
/// A device's offset is the shrunk mean of its clipped residuals:
/// Δ = Σ rᵢ/σᵢ² / (Σ 1/σᵢ² + 1/τ²), residuals clipped to ±2σᵢ, τ the offsets' prior spread;
/// then the weighted mean over devices is subtracted. Its variance 1/(Σ 1/σᵢ² + 1/τ²) is kept
/// for the leverage of each of the device's samples (``SiteCalibrator``).
struct DeviceEffects: Sendable {
    private(set) var offsets: [Double]
    /// Each offset's variance, dB² (0 until the offsets are first estimated: taken as known).
    private(set) var variances: [Double]
    /// How far the devices' offsets spread, learned from the last update (nil before it, or
    /// with fewer than two devices heard).
    private(set) var spread: DeviceOffsetSpread?

    init(deviceCount: Int) {
        offsets = Array(repeating: 0, count: deviceCount)
        variances = Array(repeating: 0, count: deviceCount)
    }

    /// Re-estimates the offsets from the pairs' residuals against the calibrator's models in force.
    mutating func update(_ pairs: [TrafficPairs.Pair], calibrator: SiteCalibrator, priorSigma: Double) {
        var sums = Array(repeating: 0.0, count: offsets.count)
        // Unclipped, for the spread: clipping pulls a far-off phone's mean in (an 8-dB phone
        // with 4 dB of noise, clipped at ±8 dB, by about 1.6 dB) and would narrow the spread.
        var rawSums = Array(repeating: 0.0, count: offsets.count)
        var weights = Array(repeating: 0.0, count: offsets.count)
        for pair in pairs {
            let slot = Int(pair.slot), device = Int(pair.device)
            let model = calibrator.beacons[slot].model
            let expected = calibrator.prediction(slot: slot, model: model, receiver: pair.receiver, xx: 0, xy: 0, yy: 0)
                .expected
            let residual = pair.rssi - expected
            let sigma = model.sigma
            let clipped = min(max(residual, -2 * sigma), 2 * sigma)
            sums[device] += clipped / (sigma * sigma)
            rawSums[device] += residual / (sigma * sigma)
            weights[device] += 1 / (sigma * sigma)
        }
        let tau = 1 / (priorSigma * priorSigma)
        spread = DeviceOffsetSpread(sums: rawSums, weights: weights)
        var mean = 0.0, total = 0.0
        for device in offsets.indices {
            offsets[device] = sums[device] / (weights[device] + tau)
            variances[device] = weights[device] > 0 ? 1 / (weights[device] + tau) : 0
            mean += weights[device] * offsets[device]
            total += weights[device]
        }
        guard total > 0 else { return }
        mean /= total
        for device in offsets.indices where weights[device] > 0 { offsets[device] -= mean }
    }
}
