import BeaconModel
import Foundation

/// The zone a phone is in, estimated from its positions and their covariances: one zone of the
/// floor or none, never two, with the probability of the answer.
///
/// **Evidence.** Each position N(μ, P) (metres, m²) gives every zone z of the floor its
/// probability mass mᵤ = P(x ∈ z), computed with a 5 × 5 Gauss–Hermite rule in the Cholesky
/// frame of P (25 points x = μ + L ξ, L Lᵀ = P, weights the products of the one-dimensional
/// rule's; exact for a polynomial of degree 9 in each axis, and a step at a zone's edge gets the
/// mass within about a twentieth). A floor with an outline holds the phone (the engine keeps
/// positions inside it by default), so the masses are those of the position truncated to the
/// outline: points outside it are left out and the rest renormalised,
/// mᵤ = P(x ∈ z) / P(x ∈ outline). A position near an outer wall then does not count the part of
/// its spread beyond the wall as "in no zone". The rest, 1 − Σ mᵤ, is "in no zone" (inside the
/// outline but in none of its zones, or, with no point of the rule inside the outline, anywhere
/// outside the zones).
///
/// **Filter.** A hidden Markov model over the floor's zones and "none": over dt seconds the
/// phone stays where it was with probability e^{−dt/τ}, τ = ``dwellTime``; otherwise it moves
/// to a neighbour of its state or stays, each of these equally likely (``ZoneAdjacency``: zones
/// that overlap or touch along a stretch not closed by walls, and "none", which neighbours every
/// zone), so that one position deep in a zone the phone cannot reach in one step does not take
/// the zone over (the adjacency is built once per floor, again when the floor's level or number
/// of zones changes); each position's masses (plus ``floorMass``, so that no state is ever ruled
/// out by one position), raised to the power min(dt / ``evidenceTime``, 1) so that positions
/// closer together in time than an epoch count as one, weigh the predicted probabilities (Bayes' rule;
/// Rabiner, Proc. IEEE 77(2), 1989, the forward pass).
///
/// **Decision.** The zone reported changes only when another state's probability reaches
/// ``switchProbability``; until then the zone held is kept; and the state just left is not taken
/// back within ``dwellTime`` of leaving it. So a position wavering at a boundary does not flap,
/// and two zones are never reported at once.
public struct ZonePresence: Sendable, Hashable {
    /// τ, seconds: how long the belief in a zone lasts without evidence. Default 5 s (the
    /// engine's shadowing correlation time: readings further apart are mostly new evidence).
    public var dwellTime: Double
    /// Probability another state needs to take over the zone reported. Default 0.6.
    public var switchProbability: Double
    /// Added to every state's mass before weighing: no position rules a state out. 0.01.
    public static let floorMass = 0.01
    /// Seconds over which consecutive positions count as one: a position dt seconds after the
    /// last counts as the fraction min(dt / 1 s, 1) of an independent one (its masses are raised
    /// to that power), so the engine's 1-s epochs count in full. 5 s (the shadowing's
    /// correlation time) put the zone 6–7 s behind the position on the simulated store of
    /// `Scripts/Research/rooms-stress.py`; 2 s held the true zone less there (85 % against 88 %,
    /// learned models, seed 1); the re-entry rule keeps the zone from flapping
    /// (Docs/Guide/Monitoring.md, "Zone presence").
    public static let evidenceTime = 1.0

    private var level: Int?
    private var time: Double?
    /// Probabilities of the floor's zones in the floor's order, then "none".
    private var probabilities: [Double] = []
    private var masses: [Double] = []
    /// The predicted probabilities (reused).
    private var predicted: [Double] = []
    /// The transitions of the floor of ``level`` (built when the floor changes).
    private var adjacency: ZoneAdjacency?
    /// The state reported (an index into ``probabilities``).
    private var held: Int?
    /// The state left at the last change, and when (seconds).
    private var leftState: Int?
    private var leftTime = -Double.infinity

    /// A zone estimate with the given settings.
    public init(dwellTime: Double = 5, switchProbability: Double = 0.6) {
        self.dwellTime = dwellTime
        self.switchProbability = switchProbability
    }

    /// The 5-point Gauss–Hermite rule for N(0, 1): nodes and weights.
    static let nodes = [-2.856_970_013_872_806, -1.355_626_179_974_266, 0, 1.355_626_179_974_266, 2.856_970_013_872_806]
    static let weights = [
        0.011_257_411_327_720_69, 0.222_075_922_005_612_6, 0.533_333_333_333_333_4, 0.222_075_922_005_612_6,
        0.011_257_411_327_720_69
    ]

    /// Each zone's probability mass under N(`position`, covariance (xx, xy, yy)) truncated to
    /// the floor's outline (not truncated without an outline, or when no point of the rule lies
    /// inside it), in the floor's zone order, into `masses` (which it resizes).
    public static func zoneMasses(
        position: Point2D, xx: Double, xy: Double, yy: Double, floor: Floor, into masses: inout [Double]
    ) {
        masses.removeAll(keepingCapacity: true)
        masses.append(contentsOf: repeatElement(0.0, count: floor.zones.count))
        // L = chol(P), with P made positive definite where rounding left it short.
        let a = max(xx, 1e-6)
        let l00 = a.squareRoot(), l10 = xy / l00
        let l11 = max(yy - l10 * l10, 1e-6).squareRoot()
        let outline = floor.outline.flatMap { $0.vertices.count >= 3 ? $0 : nil }
        let cholesky = (l00, l10, l11)
        let inside = addMasses(position: position, cholesky: cholesky, floor: floor, within: outline, into: &masses)
        guard outline != nil else { return }
        if inside > 0 {
            for k in masses.indices { masses[k] = min(masses[k] / inside, 1) }
        } else {
            // No point inside the outline (a position outside it, as `--no-outline` allows):
            // the masses untruncated (none was added above, so they start from zero).
            addMasses(position: position, cholesky: cholesky, floor: floor, within: nil, into: &masses)
        }
    }

    /// Adds the rule's weight of each point x = μ + L ξ (L = `cholesky` as (l00, l10, l11)) that
    /// lies inside `outline` (every point when nil) to its zone's entry of `masses`; returns the
    /// weight of those points.
    @discardableResult
    private static func addMasses(
        position: Point2D, cholesky: (Double, Double, Double), floor: Floor, within outline: Polygon?,
        into masses: inout [Double]
    ) -> Double {
        let (l00, l10, l11) = cholesky
        var inside = 0.0
        for i in 0..<5 {
            for j in 0..<5 {
                let u = nodes[i], v = nodes[j]
                let point = Point2D(x: position.x + l00 * u, y: position.y + l10 * u + l11 * v)
                if let outline, !outline.contains(point) { continue }
                inside += weights[i] * weights[j]
                guard let zone = floor.zones.firstIndex(where: { $0.polygon.contains(point) }) else { continue }
                masses[zone] += weights[i] * weights[j]
            }
        }
        return inside
    }

    /// Takes the position at `time` (seconds) on `floor`, with its horizontal covariance (m²),
    /// and returns the zone to report (nil: none) and its probability. `adjacency` is `floor`'s
    /// (``ZoneAdjacency/init(floor:)``), built once and shared by many estimates of one floor;
    /// nil builds this estimate's own when the floor changes.
    public mutating func update(
        time: Double, position: Point2D, xx: Double, xy: Double, yy: Double, floor: Floor,
        adjacency shared: ZoneAdjacency? = nil
    ) -> (zone: String?, probability: Double) {
        let count = floor.zones.count + 1
        guard floor.zones.count > 0, position.x.isFinite, position.y.isFinite else { return (nil, 1) }
        Self.zoneMasses(position: position, xx: xx, xy: xy, yy: yy, floor: floor, into: &masses)
        masses.append(max(1 - masses.reduce(0, +), 0))
        if level != floor.level || probabilities.count != count {
            level = floor.level
            probabilities = Array(repeating: 1 / Double(count), count: count)
            predicted = probabilities
            adjacency = shared == nil ? ZoneAdjacency(floor: floor) : nil
            held = nil
            leftState = nil
        }
        var weight = 1.0
        if let last = self.time, time > last, level == floor.level, let adjacency = shared ?? adjacency {
            let stay = Foundation.exp(-(time - last) / dwellTime)
            adjacency.predict(probabilities, stay: stay, into: &predicted)
            swap(&probabilities, &predicted)
            weight = min((time - last) / Self.evidenceTime, 1)
        }
        self.time = time
        var total = 0.0
        for k in probabilities.indices {
            probabilities[k] *= Foundation.pow(masses[k] + Self.floorMass, weight)
            total += probabilities[k]
        }
        for k in probabilities.indices { probabilities[k] /= total }
        var best = 0
        for k in probabilities.indices where probabilities[k] > probabilities[best] { best = k }
        let justLeft = leftState == best && time - leftTime < dwellTime
        if held == nil {
            held = best
        } else if let current = held, best != current, probabilities[best] >= switchProbability, !justLeft {
            leftState = current
            leftTime = time
            held = best
        }
        let state = held ?? best
        return (state < floor.zones.count ? floor.zones[state].id : nil, probabilities[state])
    }
}
