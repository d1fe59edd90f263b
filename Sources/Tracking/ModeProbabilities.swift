import Foundation

/// The probability of each ``MotionMode`` (standing, strolling, walking), summing to 1.
///
/// Between epochs the modes follow a continuous-time Markov chain: a person stays in mode i
/// for an exponentially distributed dwell time of mean Tᵢ and then moves to one of the other
/// two modes with equal probability. Over dt seconds the probability of staying is
/// e^{−dt/Tᵢ} (the first-order form of the chain's transition matrix e^{G dt}, exact when at
/// most one switch happens within dt; see ``predicted(over:dwellTimes:)``).
///
/// Codable as `{"standing": …, "strolling": …, "walking": …}`.
public struct ModeProbabilities: Sendable, Hashable, Codable {
    /// Probability of ``MotionMode/standing``.
    public var standing: Double
    /// Probability of ``MotionMode/strolling``.
    public var strolling: Double
    /// Probability of ``MotionMode/walking``.
    public var walking: Double

    /// Probabilities as given (normalised to sum 1; all equal when they do not sum to a
    /// positive finite number).
    public init(standing: Double, strolling: Double, walking: Double) {
        self.standing = standing
        self.strolling = strolling
        self.walking = walking
        normalise()
    }

    /// The probability of `mode`.
    public subscript(mode: MotionMode) -> Double {
        get {
            switch mode {
            case .standing: return standing
            case .strolling: return strolling
            case .walking: return walking
            }
        }
        set {
            switch mode {
            case .standing: standing = newValue
            case .strolling: strolling = newValue
            case .walking: walking = newValue
            }
        }
    }

    /// The most probable mode.
    public var mostProbable: MotionMode {
        MotionMode.allCases.max { self[$0] < self[$1] } ?? .walking
    }

    /// The probabilities dt seconds later with no evidence: μⱼ' = Σᵢ μᵢ πᵢⱼ(dt) with
    /// πᵢᵢ = e^{−dt/Tᵢ} and πᵢⱼ = (1 − πᵢᵢ)/2 for j ≠ i; `dwellTimes` are (T_standing,
    /// T_strolling, T_walking) in seconds.
    public func predicted(over dt: Double, dwellTimes: (Double, Double, Double)) -> ModeProbabilities {
        guard dt > 0 else { return self }
        let s0 = Foundation.exp(-dt / dwellTimes.0)
        let s1 = Foundation.exp(-dt / dwellTimes.1)
        let s2 = Foundation.exp(-dt / dwellTimes.2)
        let l0 = standing * (1 - s0) / 2, l1 = strolling * (1 - s1) / 2, l2 = walking * (1 - s2) / 2
        return ModeProbabilities(
            standing: standing * s0 + l1 + l2,
            strolling: strolling * s1 + l0 + l2,
            walking: walking * s2 + l0 + l1)
    }

    /// Bayes' rule: the probabilities times each mode's likelihood (any common scale),
    /// normalised. Likelihoods that are all zero or not finite leave the probabilities as they
    /// were.
    public func weighted(by likelihood: (Double, Double, Double)) -> ModeProbabilities {
        let a = standing * likelihood.0, b = strolling * likelihood.1, c = walking * likelihood.2
        let sum = a + b + c
        guard sum.isFinite, sum > 0 else { return self }
        return ModeProbabilities(standing: a, strolling: b, walking: c)
    }

    private mutating func normalise() {
        let sum = standing + strolling + walking
        guard sum.isFinite, sum > 0, standing >= 0, strolling >= 0, walking >= 0 else {
            standing = 1.0 / 3
            strolling = 1.0 / 3
            walking = 1.0 / 3
            return
        }
        standing /= sum
        strolling /= sum
        walking /= sum
    }
}
