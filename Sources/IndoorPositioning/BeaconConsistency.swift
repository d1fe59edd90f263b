/// Watches every beacon's readings against the tracked positions over many epochs and sets
/// apart a beacon that keeps disagreeing with them: one that was moved, is spoofed, or sits
/// behind something the plan does not know about.
///
/// A single fix cannot tell a beacon moved by a few metres from noise (its readings shift by
/// less than their scatter over most of a room), but the shift persists. After each tracked
/// epoch, each beacon heard gets the normalised squared residual
///
///     u = (RSSI̅ − h(x̂))² / (λσ²/m + g P gᵀ)
///
/// (RSSI̅ the epoch's mean of m readings, h the path-loss model at the tracked position x̂,
/// g = ∂h/∂(x, y), P the tracked position covariance, λ the tracker's noise scale); u averages
/// 1 for a beacon that fits. Its exponentially weighted mean over about ``memory`` epochs is
/// kept per beacon. A beacon is set apart when that mean exceeds ``threshold`` and is at least
/// ``relativeThreshold`` times the median beacon's (so a site whose model fits every beacon
/// loosely does not lose them all), after at least ``minimumEpochs`` epochs; it is taken back
/// when its mean falls below ``recovery``. Set-apart beacons are still scored (against tracks
/// made without them), so a beacon that was only blocked for a while comes back. A beacon is
/// only set apart while at least ``minimumRemaining`` other beacons of its floor are in use:
/// a sparse site needs every beacon, and its tracks are too uncertain to judge one by.
///
/// Only a beacon whose model was measured (a calibration given to the engine, or learned from
/// traffic) is ever set apart. On the plan's generic values, a beacon whose readings sit a few
/// dB off its model may as well have another transmit power or other surroundings as another
/// place, and the tracks cannot tell which: on danis-office with the plan's values the watch set
/// apart three of twelve beacons that are where the plan says, at a cost of 0.30 m of RMSE
/// (Docs/Evidence/Accuracy.md). There a misfitting beacon only counts less, through each device's
/// ``inflation``.
struct BeaconConsistency: Sendable {
    /// Epochs of memory of the running mean.
    static let memory = 30.0
    /// Mean normalised squared residual above which a beacon is set apart. (Residuals are
    /// taken after the beacon's own readings were fused, so a fitting beacon scores 0.3–1.2 in
    /// simulation and a beacon misplaced by 6 m 2.6–8.3.)
    static let threshold = 2.5
    /// … and how many times the median beacon's it must be. On real sites whose model fits
    /// some beacons worse than others the worst good beacon reached about 3× the median (danis
    /// office, kolakowski flat); a misplaced one stands at 3.7× and more.
    static let relativeThreshold = 3.5
    /// Mean below which a set-apart beacon is taken back.
    static let recovery = 1.8
    /// Epochs a beacon must have been scored before it can be set apart.
    static let minimumEpochs = 20
    /// Beacons of the same floor that must stay in use for one to be set apart.
    static let minimumRemaining = 7

    private var mean: [Double]
    private var epochs: [Int]
    private let levels: [Int]
    /// Whether each beacon (by table slot) is set apart now.
    private(set) var excluded: [Bool]
    /// Each beacon's variance factor for the tracker: its running mean relative to the median
    /// beacon's, in [1, ``maximumInflation``] (1 until it has been scored ``minimumEpochs`` times).
    private(set) var inflation: [Double]
    /// The scored beacons' means, reused by ``decide(isMeasured:)`` so that an epoch allocates nothing.
    private var scored: [Double] = []
    /// Largest variance factor a beacon's samples get.
    static let maximumInflation = 16.0

    /// A watch over beacons on the given levels (one entry per beacon slot).
    init(levels: [Int]) {
        self.levels = levels
        mean = Array(repeating: 1, count: levels.count)
        epochs = Array(repeating: 0, count: levels.count)
        excluded = Array(repeating: false, count: levels.count)
        inflation = Array(repeating: 1, count: levels.count)
    }

    /// Makes this watch equal to `other` (a watch over the same beacons), in this one's storage.
    mutating func overwrite(with other: BeaconConsistency) {
        guard levels == other.levels else {
            self = other
            return
        }
        mean.overwrite(with: other.mean)
        epochs.overwrite(with: other.epochs)
        excluded.overwrite(with: other.excluded)
        inflation.overwrite(with: other.inflation)
        scored.overwrite(with: other.scored)
    }

    /// Adds one epoch's normalised squared residual `u` of the beacon in `slot`.
    mutating func record(slot: Int, normalizedSquaredResidual u: Double) {
        guard u.isFinite else { return }
        epochs[slot] += 1
        mean[slot] += (min(u, 25) - mean[slot]) / Self.memory
    }

    /// Re-weighs the beacons and re-decides which are set apart, among those `isMeasured` says
    /// have a measured model (by default none: a device's own watch only weighs beacons).
    mutating func decide(isMeasured: (Int) -> Bool = { _ in false }) {
        scored.removeAll(keepingCapacity: true)
        for slot in mean.indices where epochs[slot] >= Self.minimumEpochs { scored.append(mean[slot]) }
        guard !scored.isEmpty else { return }
        // The upper median: the value sorting would put at index count / 2, found in place.
        let median = scored.selectInPlace(scored.count / 2)
        for slot in mean.indices where epochs[slot] >= Self.minimumEpochs {
            inflation[slot] = min(max(mean[slot] / max(median, 1e-3), 1), Self.maximumInflation)
        }
        for slot in mean.indices where epochs[slot] >= Self.minimumEpochs && isMeasured(slot) {
            if excluded[slot] {
                if mean[slot] < Self.recovery { excluded[slot] = false }
            } else if mean[slot] > Self.threshold && mean[slot] > Self.relativeThreshold * median {
                let inUse = levels.indices.filter { levels[$0] == levels[slot] && !excluded[$0] && $0 != slot }.count
                if inUse >= Self.minimumRemaining { excluded[slot] = true }
            }
        }
    }

    /// Takes another watch's means, counts and decisions (same beacons), value by value into
    /// this watch's own storage.
    mutating func copyState(from other: BeaconConsistency) {
        for slot in mean.indices {
            mean[slot] = other.mean[slot]
            epochs[slot] = other.epochs[slot]
            excluded[slot] = other.excluded[slot]
            inflation[slot] = other.inflation[slot]
        }
    }

    /// The running mean of a beacon's normalised squared residual (1 when it fits).
    func score(slot: Int) -> Double { mean[slot] }

}
