import BeaconModel
import Foundation

/// Several ``AugmentedTracker``s that differ only in their shadowing model, run side by side on
/// the same samples and weighed by how well each predicts them: multiple-model adaptive
/// estimation (Magill, IEEE Trans. Automatic Control 10(4), 1965; the switching form as in
/// Bar-Shalom, Li & Kirubarajan 2001, §11.6).
///
/// Whether consecutive readings of a beacon share their error depends on the site and on how
/// the phone moves; a filter that assumes correlation where there is none throws information
/// away, and one that assumes independence where errors persist follows them and is
/// over-confident. The bank lets the data decide. Member k has weight wₖ; at each epoch
///
///     wₖ ← (1 − ε) wₖ + ε / K            (the model may change: ε = ``switchProbability``)
///     wₖ ← wₖ · p(zₜ | z₁…ₜ₋₁, model k)   (the epoch's evidence, ``AugmentedTracker/lastLogEvidence``)
///
/// normalised. The bank's estimate is the mixture: x̄ = Σ wₖ xₖ, P̄ = Σ wₖ (Pₖ + (xₖ − x̄)(xₖ − x̄)ᵀ).
/// A smoothed batch weighs each member's smoothed track by the evidence of the whole batch.
public struct TrackerBank: Sendable {
    /// The members, each with its own shadowing model.
    public private(set) var members: [AugmentedTracker]
    /// The members' weights (probabilities, summing to 1).
    public private(set) var weights: [Double]
    /// Each member's log-evidence summed over every epoch: the batch weights of ``smooth()``.
    public private(set) var totalLogEvidence: [Double]

    /// Probability per epoch that the better model changes (keeps every weight above ε/K so
    /// that the bank can follow a change of site or of how the phone is carried). 0.02.
    public static let switchProbability = 0.02

    /// A bank started at a first fix: one member per shadowing model (at least one), all with
    /// the same motion, gating and offset settings; see
    /// ``AugmentedTracker/init(first:configuration:offset:shadowing:floorElevation:offsetEstimate:)``.
    public init(
        first: PositionMeasurement, configuration: TrackerConfiguration, offset: DeviceOffsetModel,
        shadowing models: [ShadowingModel], floorElevation: Double,
        offsetEstimate: (value: Double, variance: Double)? = nil
    ) throws(TrackingError) {
        guard !models.isEmpty else { throw .invalidConfiguration(field: "shadowing models", value: 0) }
        var members: [AugmentedTracker] = []
        for model in models {
            members.append(
                try AugmentedTracker(
                    first: first, configuration: configuration, offset: offset,
                    shadowing: model, floorElevation: floorElevation,
                    offsetEstimate: offsetEstimate))
        }
        self.members = members
        weights = Array(repeating: 1 / Double(models.count), count: models.count)
        totalLogEvidence = Array(repeating: 0, count: models.count)
    }

    /// The motion-mode probabilities of the mixture: Σ wₖ μₖ over the members.
    public var modeProbabilities: ModeProbabilities {
        var sum = ModeProbabilities(standing: 0, strolling: 0, walking: 0)
        for k in members.indices {
            for mode in MotionMode.allCases { sum[mode] += weights[k] * members[k].modeProbabilities[mode] }
        }
        return ModeProbabilities(standing: sum.standing, strolling: sum.strolling, walking: sum.walking)
    }

    /// Weighs every member's mode probabilities with an activity hint from the phone (see
    /// ``AugmentedTracker/observe(_:)``).
    public mutating func observe(_ hint: ActivityHint) {
        for k in members.indices { members[k].observe(hint) }
    }

    /// Frees every member's scratch space (``AugmentedTracker/releaseScratch()``) while the
    /// track is idle; the estimates do not change.
    public mutating func releaseScratch() {
        for k in members.indices { members[k].releaseScratch() }
    }

    /// Takes `shared`'s buffers for this epoch, where it holds some (a bank's own are freed).
    package mutating func borrowScratch(_ shared: inout TrackerScratch) {
        for k in members.indices where k < shared.members.count && !shared.members[k].isEmpty {
            members[k].scratch = .none
            swap(&members[k].scratch, &shared.members[k])
        }
    }

    /// Gives the buffers back to `shared` (or, where `shared` holds some already, frees the
    /// bank's own): the bank holds no scratch until it borrows again.
    package mutating func returnScratch(_ shared: inout TrackerScratch) {
        while shared.members.count < members.count { shared.members.append(.none) }
        for k in members.indices {
            if shared.members[k].isEmpty {
                swap(&members[k].scratch, &shared.members[k])
            } else {
                members[k].scratch = .none
            }
        }
    }

    /// The index of the member with the largest weight.
    public var leader: Int { weights.indices.max { weights[$0] < weights[$1] } ?? 0 }

    /// The time of the state, seconds.
    public var time: Double { members[0].time }
    /// The floor level of the track, if known.
    public var level: Int? { members[0].level }
    /// The device offset, dB: the members' weighted mean.
    public var deviceOffset: Double { mixture { $0.deviceOffset } }
    /// The device offset's variance, dB² (mixture variance).
    public var deviceOffsetVariance: Double {
        let mean = deviceOffset
        return mixture { $0.deviceOffsetVariance + ($0.deviceOffset - mean) * ($0.deviceOffset - mean) }
    }
    /// The members' weighted noise scale λ.
    public var noiseScale: Double { mixture { $0.noiseScale } }
    /// Whether the offset is estimated.
    public var estimatesOffset: Bool { members[0].offsetModel.isEstimated }

    /// The mixture estimate: position, velocity and horizontal covariance (with the spread of the
    /// members' positions added).
    public var estimate: TrackEstimate {
        guard members.count > 1 else { return members[0].estimate }
        return .mixture(count: members.count, weight: { weights[$0] }, { members[$0].estimate })
    }

    private func mixture(_ value: (AugmentedTracker) -> Double) -> Double {
        var sum = 0.0
        for k in members.indices { sum += weights[k] * value(members[k]) }
        return sum
    }

    /// Fuses an epoch's samples in every member and re-weighs them by their evidence. A member
    /// whose update fails numerically leaves the bank (the others go on); the error is thrown
    /// only when it is the last one, or when the input itself is bad (then nothing changed).
    @discardableResult
    public mutating func update(
        _ samples: ArraySlice<RSSIMeasurement>, at time: Double
    ) throws(TrackingError) -> UpdateOutcome {
        // The samples' values are the same for every member: checked once, on the first member
        // (whose error the bank throws), each member checking only the times against its own.
        try members[0].check(samples, at: time)
        var outcome = UpdateOutcome.gated(mahalanobisSquared: 0, consecutive: 0)
        var k = 0
        while k < members.count {
            do {
                let result = try members[k].update(checked: samples, at: time)
                if k == leader || result == .reset { outcome = result }
                k += 1
            } catch {
                guard members.count > 1, k > 0 || error == .covarianceNotPositiveDefinite else { throw error }
                remove(k)
            }
        }
        reweigh()
        return outcome
    }

    /// ``update(_:at:)-(ArraySlice<RSSIMeasurement>,_)`` for an array.
    @discardableResult
    public mutating func update(_ samples: [RSSIMeasurement], at time: Double) throws(TrackingError) -> UpdateOutcome {
        try update(samples[...], at: time)
    }

    private mutating func reweigh() {
        let epsilon = members.count > 1 ? Self.switchProbability : 0
        // In place (no allocation per epoch): weights become log-weights, then normalised.
        var top = -Double.infinity
        for k in weights.indices {
            totalLogEvidence[k] += members[k].lastLogEvidence
            weights[k] =
                Foundation.log((1 - epsilon) * weights[k] + epsilon / Double(members.count))
                + members[k].lastLogEvidence
            top = max(top, weights[k])
        }
        var sum = 0.0
        for k in weights.indices {
            weights[k] = Foundation.exp(weights[k] - top)
            sum += weights[k]
        }
        for k in weights.indices { weights[k] /= sum }
    }

    private mutating func remove(_ k: Int) {
        members.remove(at: k)
        weights.remove(at: k)
        totalLogEvidence.remove(at: k)
        let sum = weights.reduce(0, +)
        for j in weights.indices { weights[j] = sum > 0 ? weights[j] / sum : 1 / Double(weights.count) }
    }

    /// Verifies every member against an independent fix (see
    /// ``AugmentedTracker/verify(against:)``); `.reset` when any member restarted at it.
    @discardableResult
    public mutating func verify(against m: PositionMeasurement) throws(TrackingError) -> UpdateOutcome {
        var outcome = UpdateOutcome.accepted(mahalanobisSquared: 0)
        for k in members.indices {
            let result = try members[k].verify(against: m)
            if k == leader || result == .reset { outcome = result }
        }
        return outcome
    }

    /// Moves every member to another floor (see ``AugmentedTracker/changeLevel(to:elevation:outline:walls:at:)``).
    public mutating func changeLevel(
        to level: Int, elevation: Double, outline: Polygon?, walls: FloorWalls = .none, at time: Double
    ) throws(TrackingError) {
        for k in members.indices {
            try members[k].changeLevel(to: level, elevation: elevation, outline: outline, walls: walls, at: time)
        }
    }

    /// The recorded steps of every member.
    public var histories: [[AugmentedStep]] { members.map(\.history) }

    /// Smoothed estimates of a bank's recorded histories (one array per member, as
    /// ``histories``): each member smoothed by ``AugmentedSmoother``, then mixed with weights
    /// proportional to exp(`totalLogEvidence`). Members whose histories do not line up with the
    /// strongest one's are left out.
    public static func smooth(
        _ histories: [[AugmentedStep]], totalLogEvidence: [Double]
    ) throws(TrackingError) -> [TrackEstimate] {
        guard let best = totalLogEvidence.indices.max(by: { totalLogEvidence[$0] < totalLogEvidence[$1] }),
            histories.count == totalLogEvidence.count
        else { throw .emptyHistory }
        return try mix(
            histories, reference: best,
            weights: totalLogEvidence.map { Foundation.exp($0 - totalLogEvidence[best]) })
    }

    /// Scratch space of ``smoothedWindow(into:workspace:)``: the smoother's, and one estimate
    /// array per member; reused, it makes fixed-lag smoothing allocation-free once warm.
    public struct WindowWorkspace: Sendable {
        /// One per member: members differ in their number of states.
        var smoothers: [AugmentedSmoother.Workspace] = []
        var tracks: [[TrackEstimate]] = []
        var used: [Int] = []

        /// An empty workspace.
        public init() {}
    }

    /// Fixed-lag smoothing: the smoothed estimates of the steps still recorded (see
    /// ``discardHistory(before:)``), oldest first, into `result` (its contents replaced, its
    /// capacity kept), the members mixed with their current weights (the evidence up to the
    /// newest step). With `workspace`'s buffers: no allocation once both are warm. Each recorded link's smoother
    /// gain is computed once and kept with its step (``AugmentedTracker``), so an epoch costs
    /// one new gain per member plus O(N² n²) for a window of N steps of n states
    /// (``AugmentedSmoother``'s window pass). Members whose recorded times do not line up with
    /// the leader's are left out of the mixture.
    /// - Throws: `emptyHistory` when nothing is recorded.
    public mutating func smoothedWindow(
        into result: inout [TrackEstimate], workspace: inout WindowWorkspace
    ) throws(TrackingError) {
        while workspace.tracks.count < members.count {
            workspace.tracks.append([])
            workspace.smoothers.append(AugmentedSmoother.Workspace())
        }
        for k in members.indices { members[k].prepareSmootherGains(&workspace.smoothers[k]) }
        let reference = members[leader].history
        workspace.used.removeAll(keepingCapacity: true)
        var total = 0.0
        for k in members.indices {
            let history = members[k].history
            guard Self.lineUp(history, reference) else { continue }
            try AugmentedSmoother().smoothWindow(
                history[...], workspace: &workspace.smoothers[k], into: &workspace.tracks[k])
            workspace.used.append(k)
            total += weights[k]
        }
        result.removeAll(keepingCapacity: true)
        guard let first = workspace.used.first else { throw .emptyHistory }
        let used = workspace.used, tracks = workspace.tracks
        for i in tracks[first].indices {
            result.append(
                .mixture(
                    count: used.count, weight: { weights[used[$0]] / total }, { tracks[used[$0]][i] }))
        }
    }

    /// Forgets every member's recorded steps before `time`, seconds: what bounds the memory and
    /// the work of fixed-lag smoothing.
    public mutating func discardHistory(before time: Double) {
        for k in members.indices { members[k].discardHistory(before: time) }
    }

    /// Each member's history smoothed, then mixed with `weights` (relative, any scale); members
    /// whose steps do not line up with member `reference`'s are left out.
    private static func mix(
        _ histories: [[AugmentedStep]], reference: Int, weights relative: [Double]
    ) throws(TrackingError) -> [TrackEstimate] {
        var tracks: [[TrackEstimate]] = []
        var weights: [Double] = []
        for k in histories.indices where lineUp(histories[k], histories[reference]) {
            tracks.append(try AugmentedSmoother().smooth(histories[k]))
            weights.append(relative[k])
        }
        let sum = weights.reduce(0, +)
        var result = tracks[0]
        for i in result.indices {
            result[i] = .mixture(count: tracks.count, weight: { weights[$0] / sum }, { tracks[$0][i] })
        }
        return result
    }

    /// Whether two members recorded steps at the same times (their smoothed tracks can be mixed
    /// step by step). Does not allocate.
    private static func lineUp(_ a: [AugmentedStep], _ b: [AugmentedStep]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { $0.time == $1.time }
    }
}
