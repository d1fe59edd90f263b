import Foundation

/// Weighted sufficient statistics of one beacon's (log-distance, RSSI) pairs for the linear
/// model y = P₀ + n x + ε, where x = −10 log₁₀(d / 1 m) and y is the RSSI in dBm.
///
/// Each pair enters with a weight ω ∈ (0, 1] (its share of a full sample after the robust
/// and position-uncertainty weights; see ``SiteCalibrator``). The weighted sums Σω, Σωx, Σωy,
/// Σωx², Σωxy and Σωy² determine the weighted least-squares fit and its residual sum of
/// squares exactly, so a beacon's learning state has a fixed size however many samples it
/// sees, and two statistics of disjoint samples merge by adding (``merge(_:)``).
///
/// Samples paired with positions estimated from those same samples also carry their leverage
/// hᵢ ∈ [0, 1) (see ``leverage``): such a position is drawn towards its own readings, so the
/// residuals there scatter by σ²(1 − hᵢ), not σ², and σ² is estimated over Σω(1 − h) degrees of
/// freedom.
public struct PathLossStatistics: Sendable, Hashable, Codable {
    /// Samples added (whatever their weight).
    public private(set) var count: Int = 0
    /// Σω, the effective number of samples.
    public private(set) var weight: Double = 0
    /// Σωx.
    public private(set) var sumX: Double = 0
    /// Σωy, dBm.
    public private(set) var sumY: Double = 0
    /// Σωx².
    public private(set) var sumXX: Double = 0
    /// Σωxy, dBm.
    public private(set) var sumXY: Double = 0
    /// Σωy², dBm².
    public private(set) var sumYY: Double = 0
    /// Σωh, the degrees of freedom the samples' positions (and device offsets) took from their
    /// own residuals: hᵢ is sample i's leverage, the diagonal entry of the hat matrix of the
    /// estimate its position came from (0 for a surveyed position).
    public private(set) var leverage: Double = 0
    /// Shortest distance added, metres (+∞ when empty).
    public private(set) var shortestDistance: Double = .infinity
    /// Longest distance added, metres (0 when empty).
    public private(set) var longestDistance: Double = 0

    /// Empty statistics.
    public init() {}

    /// Adds the pair (distance `distance` m, RSSI `rssi` dBm) with weight `weight` and leverage
    /// `leverage` (0 for a surveyed position; values outside [0, 0.95] are clamped into it).
    /// Pairs with a non-finite value, a distance ≤ 0 or a weight ≤ 0 are ignored.
    public mutating func add(distance: Double, rssi: Double, weight: Double, leverage: Double = 0) {
        guard distance.isFinite, distance > 0, rssi.isFinite, weight.isFinite, weight > 0, leverage.isFinite
        else { return }
        let x = -10 * Foundation.log10(distance)
        count += 1
        self.weight += weight
        self.leverage += weight * Swift.min(Swift.max(leverage, 0), Self.maximumLeverage)
        sumX += weight * x
        sumY += weight * rssi
        sumXX += weight * x * x
        sumXY += weight * x * rssi
        sumYY += weight * rssi * rssi
        shortestDistance = Swift.min(shortestDistance, distance)
        longestDistance = Swift.max(longestDistance, distance)
    }

    /// Adds the statistics of other samples: the result is the statistics of both sets.
    public mutating func merge(_ other: PathLossStatistics) {
        count += other.count
        weight += other.weight
        sumX += other.sumX
        sumY += other.sumY
        sumXX += other.sumXX
        sumXY += other.sumXY
        sumYY += other.sumYY
        leverage += other.leverage
        shortestDistance = Swift.min(shortestDistance, other.shortestDistance)
        longestDistance = Swift.max(longestDistance, other.longestDistance)
    }

    /// The largest leverage a sample counts with: a hat-matrix diagonal is below 1, and one
    /// near 1 (a position fixed by its own reading) would leave no degree of freedom.
    public static let maximumLeverage = 0.95

    /// Σω(1 − h), the degrees of freedom for σ²: the effective number of samples less what
    /// their positions took (at least 5 % of Σω).
    public var residualDegreesOfFreedom: Double { weight - leverage }

    /// Σω (y − P₀ − n x)², dB², the weighted residual sum of squares at (P₀ dBm, n), from the
    /// sums alone (never negative).
    public func residualSumOfSquares(measuredPower p: Double, exponent n: Double) -> Double {
        let value = sumYY - 2 * p * sumY - 2 * n * sumXY + p * p * weight + 2 * p * n * sumX + n * n * sumXX
        return Swift.max(0, value)
    }
}

extension PathLossStatistics {
    private enum CodingKeys: String, CodingKey {
        case count, weight, sumX, sumY, sumXX, sumXY, sumYY, leverage, shortestDistance, longestDistance
    }

    /// Decodes the sums; statistics written before the leverage was kept decode with none.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        count = try c.decode(Int.self, forKey: .count)
        weight = try c.decode(Double.self, forKey: .weight)
        sumX = try c.decode(Double.self, forKey: .sumX)
        sumY = try c.decode(Double.self, forKey: .sumY)
        sumXX = try c.decode(Double.self, forKey: .sumXX)
        sumXY = try c.decode(Double.self, forKey: .sumXY)
        sumYY = try c.decode(Double.self, forKey: .sumYY)
        leverage = try c.decodeIfPresent(Double.self, forKey: .leverage) ?? 0
        shortestDistance = try c.decode(Double.self, forKey: .shortestDistance)
        longestDistance = try c.decode(Double.self, forKey: .longestDistance)
    }
}
