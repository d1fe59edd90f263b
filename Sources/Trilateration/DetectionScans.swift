import Foundation
import LinearAlgebra

/// Which beacons determined fixes heard and missed, kept as a bounded sample of scans, from
/// which a ``DetectionModel`` is fitted.
///
/// Each determined fix gives one scan: for every beacon of its level, ln d from the fix's
/// position and whether it was heard, and the scan's common offset Δ. The sample keeps the
/// ``capacity`` scans of smallest ``Scan/key`` (a hash of the device and the epoch, fixed
/// across runs): a bottom-k sample, uniform over the scans, whose content depends only on which
/// scans were recorded, not on their order. So samples merged from several engines (a sharded
/// run) give the same model for any number of threads, and memory stays bounded however long
/// the traffic.
public struct DetectionScans: Sendable, Hashable, Codable {
    /// One determined fix's beacons.
    public struct Scan: Sendable, Hashable, Codable {
        /// Orders the sample (a hash of the device and the epoch).
        public var key: UInt64
        /// The scan's common RSSI offset, dB.
        public var offset: Double
        /// ln d from the fix to each beacon of its level (d in metres).
        public var logDistances: [Double]
        /// Whether each of those beacons was heard.
        public var heard: [Bool]

        /// A scan (`logDistances` and `heard` of equal length).
        public init(key: UInt64, offset: Double, logDistances: [Double], heard: [Bool]) {
            self.key = key
            self.offset = offset
            self.logDistances = logDistances
            self.heard = heard
        }
    }

    /// Scans kept (the sample's size).
    public static let capacity = 2048
    /// The scans recorded and not yet pruned to the sample (at most 2 × ``capacity``), stored
    /// flat so that recording one allocates nothing: scan i has key `keys[i]`, offset
    /// `offsets[i]` and the beacons `ends[i − 1] ..< ends[i]` (from 0 for the first) of
    /// `logDistances` and `heard`.
    private var keys: [UInt64] = []
    private var offsets: [Double] = []
    private var ends: [Int] = []
    private var logDistances: [Double] = []
    private var heard: [Bool] = []
    /// Determined fixes recorded.
    public private(set) var fixes = 0
    /// The largest key a scan recorded from now on can have and still enter the sample: the
    /// ``capacity``-th smallest key recorded so far (nil until that many were kept). A scan
    /// above it can only be counted.
    private var cutoff: UInt64?

    /// Nothing recorded.
    public init() {}

    /// Whether nothing was recorded.
    public var isEmpty: Bool { fixes == 0 }

    /// The sample: the ``capacity`` scans of smallest key, in key order (ties by content).
    public var sample: [Scan] {
        sampleOrder().prefix(Self.capacity).map { i in
            let beacons = beaconRange(of: i)
            return Scan(
                key: keys[i], offset: offsets[i], logDistances: Array(logDistances[beacons]),
                heard: Array(heard[beacons]))
        }
    }

    /// Records one determined fix's scan (non-finite values are left out).
    public mutating func record(_ scan: Scan) {
        guard scan.logDistances.count == scan.heard.count, scan.logDistances.allSatisfy(\.isFinite) else { return }
        record(key: scan.key, offset: scan.offset, beacons: scan.heard.count) {
            (scan.logDistances[$0], scan.heard[$0])
        }
    }

    /// Records one determined fix's scan without building it: its key, its offset Δ (dB) and,
    /// for each k in 0..<`beacons`, `beacon(k)`: ln d to that beacon of the fix's level and
    /// whether it was heard, or nil to leave beacon k out. A scan with a non-finite value is
    /// left out (not counted); one that cannot enter the sample (``keeps(key:)``) is counted
    /// without calling `beacon`.
    public mutating func record(
        key: UInt64, offset: Double, beacons: Int, _ beacon: (Int) -> (logDistance: Double, heard: Bool)?
    ) {
        guard offset.isFinite else { return }
        guard keeps(key: key) else {
            fixes += 1
            return
        }
        let start = logDistances.count
        for k in 0..<beacons {
            guard let b = beacon(k) else { continue }
            guard b.logDistance.isFinite else {
                logDistances.removeSubrange(start...)
                heard.removeSubrange(start...)
                return
            }
            logDistances.append(b.logDistance)
            heard.append(b.heard)
        }
        fixes += 1
        keys.append(key)
        offsets.append(offset)
        ends.append(logDistances.count)
        if keys.count >= 2 * Self.capacity { prune() }
    }

    /// Whether a scan with `key` could still enter the sample (one that cannot is only counted).
    public func keeps(key: UInt64) -> Bool {
        guard let cutoff else { return true }
        return key <= cutoff
    }

    /// Adds what `other` recorded.
    public mutating func add(_ other: DetectionScans) {
        fixes += other.fixes
        // The sample of the union lies below both cutoffs (each has `capacity` keys under its own).
        if let theirs = other.cutoff { cutoff = min(cutoff ?? theirs, theirs) }
        let base = logDistances.count
        keys += other.keys
        offsets += other.offsets
        ends += other.ends.lazy.map { $0 + base }
        logDistances += other.logDistances
        heard += other.heard
        if keys.count >= 2 * Self.capacity { prune() }
    }

    /// The beacons of scan `i` in the flat arrays.
    private func beaconRange(of i: Int) -> Range<Int> { Self.beaconRange(of: i, ends: ends) }

    /// The beacons of scan `i` in flat arrays whose scans end at `ends`.
    private static func beaconRange(of i: Int, ends: [Int]) -> Range<Int> { (i == 0 ? 0 : ends[i - 1])..<ends[i] }

    /// The scans' indices in the sample's order: by key, then by content (so that equal keys
    /// still sort alike): offset, beacon count, then each beacon's ln d and heard (missed first).
    private func sampleOrder() -> [Int] {
        keys.indices.sorted { a, b in
            if keys[a] != keys[b] { return keys[a] < keys[b] }
            if offsets[a] != offsets[b] { return offsets[a] < offsets[b] }
            let ra = beaconRange(of: a), rb = beaconRange(of: b)
            if ra.count != rb.count { return ra.count < rb.count }
            for (i, j) in zip(ra, rb) where logDistances[i] != logDistances[j] || heard[i] != heard[j] {
                return logDistances[i] != logDistances[j] ? logDistances[i] < logDistances[j] : !heard[i]
            }
            return false
        }
    }

    /// Keeps the ``capacity`` first scans in the sample's order, in that order, in the same
    /// storage (its capacity kept, so that refilling it allocates nothing).
    private mutating func prune() {
        let kept = Array(sampleOrder().prefix(Self.capacity))
        let (oldKeys, oldOffsets, oldEnds, oldLogDistances, oldHeard) = (keys, offsets, ends, logDistances, heard)
        keys.removeAll(keepingCapacity: true)
        offsets.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        logDistances.removeAll(keepingCapacity: true)
        heard.removeAll(keepingCapacity: true)
        for i in kept {
            let beacons = Self.beaconRange(of: i, ends: oldEnds)
            keys.append(oldKeys[i])
            offsets.append(oldOffsets[i])
            logDistances += oldLogDistances[beacons]
            heard += oldHeard[beacons]
            ends.append(logDistances.count)
        }
        cutoff = keys.last
    }

    // MARK: The fit

    /// The fewest scans a model is fitted from.
    public static let minimumScans = 20
    /// The fewest beacons heard, and the fewest missed, in the sample a model is fitted from.
    public static let minimumOutcomes = 20

    /// Why no model could be fitted, for messages.
    public enum Shortfall: Error, Sendable, Hashable, CustomStringConvertible {
        /// Fewer than ``DetectionScans/minimumScans`` determined fixes.
        case tooFewFixes(Int)
        /// Fewer than ``DetectionScans/minimumOutcomes`` beacons missed: every beacon in
        /// range is heard, so not hearing one says nothing measurable.
        case tooFewMissed(Int)
        /// Fewer than ``DetectionScans/minimumOutcomes`` beacons heard.
        case tooFewHeard(Int)
        /// The fit did not converge to finite coefficients.
        case noConvergence

        public var description: String {
            switch self {
            case .tooFewFixes(let n):
                return "\(n) determined fix(es), at least \(DetectionScans.minimumScans) are needed"
            case .tooFewMissed(let n):
                return
                    "beacons of the floor went unheard only \(n) time(s) in the determined fixes (at least \(DetectionScans.minimumOutcomes) are needed)"
            case .tooFewHeard(let n):
                return "only \(n) beacon reading(s) in the determined fixes"
            case .noConvergence:
                return "the detection curve's fit did not converge"
            }
        }
    }

    /// Nodes of the Gauss–Hermite rule over a scan's propensity u in the fit.
    static let propensityNodes = GaussHermite(order: 10)

    /// The maximum a posteriori ``DetectionModel`` of the sample, or why there is none.
    ///
    /// A logistic model with a random intercept per scan (a generalised linear mixed model): the
    /// likelihood of a scan is ∫ Πⱼ P(yⱼ | zⱼ + u) N(u; 0, ψ²) du, by Gauss–Hermite quadrature in
    /// u (10 nodes), maximised over (a, b, c, ln ψ) by Newton's method (the Hessian by finite
    /// differences of the exact gradient, damped until positive-definite, with a backtracking
    /// line search), with a weak prior N(0, 10²) on b and c and ψ within 0.01…20. The fit is
    /// constrained to physics, b ≤ 0 and c ≥ 0: when the free fit violates one, the
    /// constrained maximum lies on that boundary and the fit is made again with the coefficient
    /// held at 0. Scans are summed in key order, so equal samples give the same model bit for
    /// bit.
    ///
    /// - Parameter previous: a model fitted before from a sample like this one (a curve being
    ///   refined as traffic comes in): Newton's method starts from it instead of from the
    ///   sample's hearing rate, which saves most of its iterations; the maximum is the same.
    public func fit(from previous: DetectionModel? = nil) -> Result<DetectionModel, Shortfall> {
        guard fixes >= Self.minimumScans else { return .failure(.tooFewFixes(fixes)) }
        let scans = sample
        var heard = 0, total = 0
        for scan in scans {
            total += scan.heard.count
            for h in scan.heard where h { heard += 1 }
        }
        guard heard >= Self.minimumOutcomes else { return .failure(.tooFewHeard(heard)) }
        guard total - heard >= Self.minimumOutcomes else { return .failure(.tooFewMissed(total - heard)) }
        let rate = Double(heard) / Double(total)
        var free: [Bool] = [true, true, true, true]
        var start = [Foundation.log(rate / (1 - rate)), 0, 0, Foundation.log(0.5)]
        if let previous, previous.isFinite {
            start = [
                previous.intercept, previous.logDistanceSlope, previous.offsetSlope, Foundation.log(previous.scanSpread)
            ]
        }
        for _ in 0..<3 {
            guard let theta = DetectionFit(scans: scans, free: free).maximise(from: start) else {
                return .failure(.noConvergence)
            }
            var next = free
            if theta[1] > 0 { next[1] = false }
            if theta[2] < 0 { next[2] = false }
            if next == free {
                return .success(
                    DetectionModel(
                        intercept: theta[0], logDistanceSlope: theta[1], offsetSlope: theta[2],
                        scanSpread: Foundation.exp(theta[3])))
            }
            free = next
            start = theta
            for k in 1...2 where !free[k] { start[k] = 0 }
        }
        return .failure(.noConvergence)
    }
}

/// The penalised log marginal likelihood of a ``DetectionScans`` sample and its maximisation.
struct DetectionFit {
    let scans: [DetectionScans.Scan]
    /// Which of (a, b, c, ln ψ) are fitted; the others stay where they start.
    let free: [Bool]
    /// Prior precision on b and c (a N(0, 10²) prior).
    static let priorPrecision = 0.01
    /// ln ψ bounds.
    static let spreadBounds = Foundation.log(DetectionModel.minimumScanSpread)...Foundation.log(20.0)

    /// The objective, its gradient and its negated Hessian at θ = (a, b, c, ln ψ), exactly.
    ///
    /// Per scan and node uₖ = √2 ψ xₖ, with x̃ⱼ = ∂z/∂θ = (1, ln dⱼ, Δ, uₖ) and pⱼ = σ(zⱼ): the
    /// node's log-likelihood lₖ, gradient gₖ = Σⱼ (yⱼ − pⱼ) x̃ⱼ and Hessian
    /// Hₖ = −Σⱼ pⱼ(1 − pⱼ) x̃ⱼ x̃ⱼᵀ + Σⱼ (yⱼ − pⱼ) uₖ e₄e₄ᵀ (∂²uₖ/∂(ln ψ)² = uₖ); with rₖ the
    /// nodes' posterior weights, the scan adds ḡ = Σ rₖ gₖ and Σ rₖ (Hₖ + gₖgₖᵀ) − ḡḡᵀ.
    func evaluate(_ theta: [Double]) -> (value: Double, gradient: SIMD4<Double>, information: SquareMatrix) {
        let rule = DetectionScans.propensityNodes
        let psi = Foundation.exp(theta[3])
        let nodes = rule.nodes.count
        var value = -0.5 * Self.priorPrecision * (theta[1] * theta[1] + theta[2] * theta[2])
        var gradient = SIMD4(0, -Self.priorPrecision * theta[1], -Self.priorPrecision * theta[2], 0)
        var information = SquareMatrix(size: 4)
        information[1, 1] = Self.priorPrecision
        information[2, 2] = Self.priorPrecision
        var nodeLog = [Double](repeating: 0, count: nodes)
        var nodeGradient = [SIMD4<Double>](repeating: .zero, count: nodes)
        // Per node: Σ p(1 − p) times 1, ln d, ln² d, and Σ (y − p).
        var nodeSums = [SIMD4<Double>](repeating: .zero, count: nodes)
        for scan in scans {
            let base = theta[0] + theta[2] * scan.offset
            let delta = scan.offset
            var peak = -Double.infinity
            for q in 0..<nodes {
                let u = 2.0.squareRoot() * psi * rule.nodes[q]
                var l = rule.normalLogWeights[q]
                var residual = 0.0, residualL = 0.0, w0 = 0.0, w1 = 0.0, w2 = 0.0
                for j in scan.heard.indices {
                    let lnd = scan.logDistances[j]
                    let z = base + theta[1] * lnd + u
                    let y = scan.heard[j] ? 1.0 : 0.0
                    // y z − log(1 + e^z), and its derivatives.
                    l += y * z + DetectionModel.logMissProbability(logOdds: z)
                    let p = 1 / (1 + Foundation.exp(-z))
                    let w = p * (1 - p)
                    residual += y - p
                    residualL += (y - p) * lnd
                    w0 += w
                    w1 += w * lnd
                    w2 += w * lnd * lnd
                }
                nodeLog[q] = l
                nodeGradient[q] = SIMD4(residual, residualL, delta * residual, u * residual)
                nodeSums[q] = SIMD4(w0, w1, w2, u)
                peak = max(peak, l)
            }
            var mass = 0.0
            for q in 0..<nodes { mass += Foundation.exp(nodeLog[q] - peak) }
            value += peak + Foundation.log(mass)
            var mean = SIMD4<Double>.zero
            for q in 0..<nodes { mean += Foundation.exp(nodeLog[q] - peak) / mass * nodeGradient[q] }
            gradient += mean
            for q in 0..<nodes {
                let r = Foundation.exp(nodeLog[q] - peak) / mass
                let g = nodeGradient[q], sums = nodeSums[q]
                let u = sums.w
                // x̃ = (1, ln d, Δ, u) = a + (ln d) e with a = (1, 0, Δ, u), e = (0, 1, 0, 0), so
                // Σ w x̃x̃ᵀ = S₀ aaᵀ + S₁ (aeᵀ + eaᵀ) + S₂ eeᵀ from the node's three sums.
                let a = SIMD4<Double>(1, 0, delta, u), e = SIMD4<Double>(0, 1, 0, 0)
                for m in 0..<4 {
                    for k in 0..<4 {
                        let weighted =
                            a[m] * a[k] * sums.x + (a[m] * e[k] + e[m] * a[k]) * sums.y + e[m] * e[k] * sums.z
                        information[m, k] += r * (weighted - g[m] * g[k])
                    }
                }
                // ∂²u/∂(ln ψ)² = u.
                information[3, 3] -= r * u * g[0]
            }
            for m in 0..<4 {
                for k in 0..<4 { information[m, k] += mean[m] * mean[k] }
            }
        }
        for k in 0..<4 where !free[k] {
            gradient[k] = 0
            for m in 0..<4 {
                information[k, m] = 0
                information[m, k] = 0
            }
            information[k, k] = 1
        }
        return (value, gradient, information)
    }

    /// Newton's method from `start`, with the exact Hessian (damped until positive-definite)
    /// and a backtracking line search; nil when it does not converge to finite values.
    func maximise(from start: [Double]) -> [Double]? {
        var theta = start
        theta[3] = min(max(theta[3], Self.spreadBounds.lowerBound), Self.spreadBounds.upperBound)
        var current = evaluate(theta)
        guard current.value.isFinite else { return nil }
        for _ in 0..<100 {
            var damping = 0.0
            var step = [current.gradient.x, current.gradient.y, current.gradient.z, current.gradient.w]
            while true {
                var factor = current.information
                for k in 0..<4 { factor[k, k] += damping * max(1, abs(current.information[k, k])) }
                if factor.factorCholesky() {
                    factor.solveFactored(&step)
                    break
                }
                damping = damping == 0 ? 1e-6 : damping * 10
                guard damping < 1e6 else { return nil }
                step = [current.gradient.x, current.gradient.y, current.gradient.z, current.gradient.w]
            }
            // Backtracking: halve the step until the objective does not fall.
            var scale = 1.0
            var accepted = false
            var candidate = theta
            var next = current
            for _ in 0..<30 {
                for k in 0..<4 { candidate[k] = theta[k] + scale * step[k] }
                candidate[3] = min(max(candidate[3], Self.spreadBounds.lowerBound), Self.spreadBounds.upperBound)
                next = evaluate(candidate)
                if next.value.isFinite && next.value >= current.value - 1e-12 * abs(current.value) {
                    accepted = true
                    break
                }
                scale /= 2
            }
            guard accepted, candidate.allSatisfy(\.isFinite) else { return nil }
            let moved = zip(candidate, theta).map { abs($0 - $1) }.max() ?? 0
            theta = candidate
            let gain = next.value - current.value
            current = next
            if moved < 1e-7 || gain < 1e-10 * max(1, abs(current.value)) { return theta }
        }
        return theta
    }
}
