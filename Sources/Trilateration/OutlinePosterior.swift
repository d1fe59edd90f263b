import BeaconModel
import Foundation
import LinearAlgebra

/// The posterior of a planar position over a floor's outline, for fixes whose readings cannot
/// determine a position (fewer beacons than unknowns + 1, or beacons at one point).
///
/// With a uniform prior over the outline, the readings' log-normal likelihood and, when the
/// solve estimates one, a common offset Δ ~ N(0, τ²) integrated out in closed form, the
/// log-likelihood of a point p is (rᵢ = RSSI̅ᵢ − P₀ᵢ + 10 nᵢ log₁₀ dᵢ(p), wᵢ = 1/σᵢ²)
///
///     ℓ(p) = −½ [Σ wᵢ rᵢ² − (Σ wᵢ rᵢ)² / (1/τ² + Σ wᵢ)]      (offset estimated)
///     ℓ(p) = −½ Σ wᵢ rᵢ²                                   (offset known)
///
/// The fix is the posterior mean E[p] = Σ e^ℓ p / Σ e^ℓ over the centres of a grid of cells
/// inside the outline, and its covariance the posterior covariance plus each cell's own
/// (h²/12 per axis). The mean is the estimate of least expected squared error given the
/// readings and the outline; with one or two beacons it lies where the outline leaves room
/// at the distance the reading suggests, not on the beacon as a weighted centroid does.
///
/// A beacon's mean of m readings counts as one reading of variance σ², not σ²/m: readings
/// taken at one place share their shadowing (it is the place's, and a phone moves about a
/// metre in a 1-s epoch), so averaging them does not shrink it. Weighted by m/σ², as the
/// determined fix weighs it, two beacons heard many times an epoch gave a simulated walking
/// phone radii under 2 m.
///
/// The grid has at most about ``maximumCells`` cells of at least ``minimumSpacing`` metres.
/// With one beacon, ℓ depends only on its distance, so the cells are summed once per beacon
/// into ``radialBins`` bins of log-distance (their count, mean ln d and first and second
/// moments of position) and a fix costs one exponential per bin; the profiles of the last
/// ``cachedProfiles`` beacons are kept. With several beacons each beacon's ln d over the cells
/// is kept (``cachedMaps`` of them), so a fix costs a few multiply-adds and one exponential per
/// cell.
struct OutlinePosterior: Sendable {
    /// The most grid cells over the outline's bounding box.
    static let maximumCells = 4096
    /// The most cells of the detection posterior's grid (each costs a search and five
    /// exponentials per fix; its spread is metres, so cells of a quarter the number do).
    static let maximumDetectionCells = 1024
    /// The finest cell spacing, metres.
    static let minimumSpacing = 0.25
    /// Log-distance bins of a one-beacon profile.
    static let radialBins = 64
    /// One-beacon profiles kept.
    static let cachedProfiles = 32
    /// ln d maps kept for several-beacon estimates (a map is one Double per cell).
    static let cachedMaps = 16

    /// The outline the grid was built for.
    let vertices: [Point2D]
    /// The bounding box's centre; cell coordinates are relative to it.
    let origin: SIMD2<Double>
    /// The cell sides, metres.
    let cellWidth: Double
    let cellHeight: Double
    /// Centres of the cells inside the outline, relative to ``origin``.
    private var cellX: [Double] = []
    private var cellY: [Double] = []
    /// Per-cell log-likelihoods of the current estimate (reused).
    private var logLikelihood: [Double] = []
    /// Keys (beacon x, y, z, receiver plane z) of the cached one-beacon profiles, their bins
    /// (``radialBins`` slots each, the used ones first) and how many slots each uses.
    private var profileKeys: [SIMD4<Double>] = []
    private var profileBins: [RadialBin] = []
    private var profileUsed: [Int] = []
    private var nextProfile = 0
    /// Keys and ln d over the cells (``cellX`` order, one map after another) of the beacons of
    /// recent several-beacon estimates, and where each beacon of the current one starts.
    private var mapKeys: [SIMD4<Double>] = []
    private var maps: [Double] = []
    private var nextMap = 0
    private var activeMaps: [Int] = []
    /// The detection posterior's miss map (see ``estimate(detection:beacons:offsetShift:terms:weights:active:planeZ:offsetPrecision:)``)
    /// and what it was built for.
    private var missMap: [Double] = []
    private var detectionKey: MissMapStore.Key?

    /// The grid of `vertices` with at most about `cells` cells; nil when the outline has no
    /// area or no cell centre inside it.
    init?(outline vertices: [Point2D], cells: Int = OutlinePosterior.maximumCells) {
        guard vertices.count >= 3 else { return nil }
        var lo = SIMD2(Double.infinity, .infinity), hi = -lo
        for v in vertices {
            lo = SIMD2(min(lo.x, v.x), min(lo.y, v.y))
            hi = SIMD2(max(hi.x, v.x), max(hi.y, v.y))
        }
        let size = hi - lo
        guard size.x > 0, size.y > 0, size.x.isFinite, size.y.isFinite else { return nil }
        let spacing = max(Self.minimumSpacing, (size.x * size.y / Double(max(cells, 1))).squareRoot())
        let columns = max(1, Int((size.x / spacing).rounded(.up)))
        let rows = max(1, Int((size.y / spacing).rounded(.up)))
        self.vertices = vertices
        origin = (lo + hi) / 2
        cellWidth = size.x / Double(columns)
        cellHeight = size.y / Double(rows)
        for row in 0..<rows {
            let y = lo.y + (Double(row) + 0.5) * cellHeight
            for column in 0..<columns {
                let x = lo.x + (Double(column) + 0.5) * cellWidth
                guard OutlineGeometry.contains(vertices, Point2D(x: x, y: y)) else { continue }
                cellX.append(x - origin.x)
                cellY.append(y - origin.y)
            }
        }
        guard !cellX.isEmpty else { return nil }
        logLikelihood = Array(repeating: 0, count: max(cellX.count, Self.radialBins))
    }

    /// Keeps `grid` the grid of `vertices` with at most about `cells` cells: built anew (nil
    /// when the outline has none) only when the outline changed, so that its caches survive.
    static func keep(_ grid: inout OutlinePosterior?, for vertices: [Point2D], cells: Int) {
        if grid?.vertices != vertices { grid = OutlinePosterior(outline: vertices, cells: cells) }
    }

    /// The posterior mean and covariance of the horizontal position given the beacons
    /// `active` of `terms`, the receiver at height `planeZ`, and the common offset's prior
    /// precision 1/τ² (0: the offset is known and not estimated).
    mutating func estimate(
        terms: [BeaconTerm], weights: [Double], active: [Int], planeZ: Double, offsetPrecision: Double
    ) -> (mean: SIMD2<Double>, covariance: PositionCovariance) {
        var moments = Moments()
        if active.count == 1 {
            let term = terms[active[0]]
            let profile = self.profile(
                for: SIMD4(term.position.x, term.position.y, term.position.z, planeZ))
            accumulateProfile(
                profile, term: term, weight: weights[active[0]], offsetPrecision: offsetPrecision, into: &moments)
        } else {
            accumulateGrid(
                terms: terms, weights: weights, active: active, planeZ: planeZ, offsetPrecision: offsetPrecision,
                into: &moments)
        }
        return result(moments)
    }

    /// The posterior mean and covariance as ``estimate(terms:weights:active:planeZ:offsetPrecision:)``
    /// gives them, with the evidence of which of `beacons` (every beacon of the level, the
    /// heard ones among them) were heard, under `model` (``DetectionModel``: log-odds
    /// zⱼ = a + b ln dⱼ + c Δ + u, u ~ N(0, ψ²) per scan). The detection curve sees
    /// `offsetShift` + Δ, `offsetShift` being an offset already taken out of the readings.
    ///
    /// With v = c Δ + u, every beacon's log-odds is a + b ln dⱼ + v, so the beacons not heard
    /// enter through M(p, v) = Σⱼ log(1 − σ(a + b ln dⱼ(p) + v)) over all of `beacons` (the heard
    /// ones take log σ = z + log(1 − σ), which adds k v + Σ_heard (a + b ln dᵢ)). The rest is
    /// Gaussian in (Δ, v): Δ integrates out in closed form, leaving v ~ N(m, 1/γ) per cell with
    ///
    ///     T = Σ wᵢ + 1/τ²,  D = T ψ² + c²,  γ = T/D,  m = (k + c S₁/D)/γ   (S₁ = Σ wᵢ rᵢ)
    ///
    /// (γ = 1/ψ², m = k ψ² when the offset is known), and the cell's log-posterior is
    ///
    ///     −½ S₂ + S₁²ψ²/(2D) + Σ_heard (a + b ln dᵢ) + γm²/2 + ln ∫ e^(−γ(v − m)²/2 + M(p, v)) dv
    ///
    /// up to terms the same in every cell (T, D and γ do not depend on the cell); the integral
    /// by ``logIntegral(cell:gamma:centre:beaconCount:)``, with M interpolated linearly in v from
    /// a table over the cells (``missMap``, built once per model, beacons, plane and outline).
    ///
    /// `prior`: a Gaussian prior on the position, −½ w |p − centre|² added to every cell (the
    /// solver's centroid prior, for a determined fix; weight 0: none).
    mutating func estimate(
        detection model: DetectionModel, beacons: [Point3D], offsetShift: Double,
        terms: [BeaconTerm], weights: [Double], active: [Int], planeZ: Double, offsetPrecision: Double,
        prior: (centre: SIMD2<Double>, weight: Double) = (.zero, 0)
    ) -> (mean: SIMD2<Double>, covariance: PositionCovariance) {
        let key = MissMapStore.Key(
            intercept: model.intercept, slope: model.logDistanceSlope, beacons: beacons, planeZ: planeZ,
            outline: vertices, cells: cellX.count)
        if detectionKey != key { buildMissMap(key) }
        activeMaps.removeAll(keepingCapacity: true)
        for i in active {
            let t = terms[i]
            activeMaps.append(logDistanceMap(for: SIMD4(t.position.x, t.position.y, t.position.z, planeZ)))
        }
        let cells = cellX.count
        let heard = Double(active.count)
        let psi2 = model.scanSpread * model.scanSpread, c = model.offsetSlope
        let shift = c * offsetShift
        // T = 1/τ² + Σ wᵢ, D and γ: the same in every cell.
        var weightSum = offsetPrecision
        for i in active { weightSum += weights[i] }
        let d = weightSum * psi2 + c * c
        let gamma = offsetPrecision > 0 ? weightSum / d : 1 / psi2
        let priorCentre = prior.centre - origin
        var best = -Double.infinity
        for cell in 0..<cells {
            var sum2 = 0.0, sum1 = 0.0, logOdds = 0.0
            for (k, i) in active.enumerated() {
                let t = terms[i]
                let lnd = maps[activeMaps[k] + cell]
                let r = t.offset + t.slope * lnd
                let w = weights[i]
                sum2 += w * r * r
                sum1 += w * r
                logOdds += model.intercept + model.logDistanceSlope * lnd
            }
            // ½ ln(D/ψ²) and ½ ln γ, the same in every cell, are left out.
            var l = -0.5 * sum2 + logOdds
            let mean: Double
            if offsetPrecision > 0 {
                l += 0.5 * sum1 * sum1 * psi2 / d
                mean = (heard + c * sum1 / d) / gamma
            } else {
                mean = heard * psi2
            }
            l += 0.5 * gamma * mean * mean
            l += logIntegral(cell: cell, gamma: gamma, centre: mean + shift, beaconCount: beacons.count)
            if prior.weight > 0 {
                let dx = cellX[cell] - priorCentre.x, dy = cellY[cell] - priorCentre.y
                l -= 0.5 * prior.weight * (dx * dx + dy * dy)
            }
            logLikelihood[cell] = l
            best = max(best, l)
        }
        var moments = Moments()
        accumulateCells(best: best, into: &moments)
        return result(moments)
    }

    /// The Gauss–Hermite rule over v (at most 8 nodes: ``logIntegral(cell:gamma:centre:beaconCount:)``
    /// keeps them in a SIMD8).
    static let propensityRule = GaussHermite(order: 5)
    /// The table of M(p, v): v from −``missRange`` to +``missRange`` in steps of ``missStep``.
    static let missRange = 12.0
    static let missStep = 0.25
    static var missNodes: Int { Int((2 * missRange / missStep).rounded()) + 1 }

    /// M(p, v) at cell `cell`, linear in v between the table's nodes (constant beyond them).
    private func missTerm(cell: Int, v: Double) -> Double {
        let position = min(max((v + Self.missRange) / Self.missStep, 0), Double(Self.missNodes - 1))
        let j = min(Int(position), Self.missNodes - 2)
        let f = position - Double(j)
        let row = cell * Self.missNodes
        return missMap[row + j] * (1 - f) + missMap[row + j + 1] * f
    }

    /// ln ∫ exp(g(w)) dw with g(w) = −γ/2 (w − `centre`)² + M(p, w) at cell `cell` (w = v plus
    /// the shift of the curve's offset). g is concave, and where many beacons go unheard M is
    /// steep, so the integrand's mass can lie many of the Gaussian's standard deviations from its
    /// centre: the mode is found on the table's nodes (a binary search on the sign of g's
    /// difference), refined by the parabola through the nodes around it, and the integral taken
    /// by adaptive Gauss–Hermite quadrature there (5 nodes, scaled by the parabola's curvature κ:
    /// ∫ e^g ≈ √(2/κ) Σ wₖ e^(xₖ² + g(w* + √(2/κ) xₖ))).
    private func logIntegral(cell: Int, gamma: Double, centre: Double, beaconCount: Int) -> Double {
        let h = Self.missStep, start = -Self.missRange, last = Self.missNodes - 1
        let row = cell * Self.missNodes
        func atNode(_ j: Int) -> Double {
            let w = start + Double(j) * h - centre
            return -0.5 * gamma * w * w + missMap[row + j]
        }
        // The Gaussian alone may be narrower than a step: then its own centre is the mode.
        var mode = centre
        var kappa = gamma
        if gamma * h * h <= 4 {
            // γ (w* − centre) = M′(w*) ∈ [−beacons, 0]: the mode lies in [centre − beacons/γ, centre].
            var lo = Int(((centre - Double(beaconCount) / gamma - start) / h).rounded(.down)) - 1
            var hi = Int(((centre - start) / h).rounded(.up)) + 1
            lo = min(max(lo, 0), last)
            hi = min(max(hi, lo), last)
            while lo < hi {
                let mid = (lo + hi) / 2
                if atNode(mid + 1) > atNode(mid) { lo = mid + 1 } else { hi = mid }
            }
            let j = min(max(lo, 1), last - 1)
            let below = atNode(j - 1), at = atNode(j), above = atNode(j + 1)
            let second = below - 2 * at + above
            mode = start + Double(j) * h
            if second < 0 && second.isFinite {
                kappa = max(-second / (h * h), gamma)
                mode += min(max(0.5 * h * (below - above) / second, -h), h)
            }
        }
        let scale = (2 / kappa).squareRoot()
        let rule = Self.propensityRule
        var values = SIMD8<Double>(repeating: -.infinity)
        var peak = -Double.infinity
        for q in 0..<rule.nodes.count {
            let w = mode + scale * rule.nodes[q]
            let value =
                rule.adaptiveLogWeights[q] - 0.5 * gamma * (w - centre) * (w - centre) + missTerm(cell: cell, v: w)
            values[q] = value
            peak = max(peak, value)
        }
        var sum = 0.0
        for q in 0..<rule.nodes.count { sum += Foundation.exp(values[q] - peak) }
        return peak + Foundation.log(sum * scale)
    }

    /// M(p, v) = Σ over `key`'s beacons of log(1 − σ(a + b ln d + v)) at every cell and node of
    /// v (cell-major: one cell's nodes are adjacent, as a fix reads them), from the process's
    /// ``MissMapStore`` (built there if no solver built it yet).
    private mutating func buildMissMap(_ key: MissMapStore.Key) {
        let cells = cellX.count, nodes = Self.missNodes
        missMap = MissMapStore.shared.map(for: key) {
            var map = [Double](repeating: 0, count: nodes * cells)
            for beacon in key.beacons {
                let b = SIMD4(beacon.x, beacon.y, beacon.z, key.planeZ)
                for c in 0..<cells {
                    let z0 = key.intercept + key.slope * logDistance(cell: c, beacon: b)
                    for j in 0..<nodes {
                        let v = -Self.missRange + Double(j) * Self.missStep
                        map[c * nodes + j] += DetectionModel.logMissProbability(logOdds: z0 + v)
                    }
                }
            }
            return map
        }
        detectionKey = key
    }

    /// The mean and covariance of accumulated moments (the cells' own spread included).
    private func result(_ moments: Moments) -> (mean: SIMD2<Double>, covariance: PositionCovariance) {
        let mean = SIMD2(moments.x, moments.y) / moments.mass
        let xx = max(moments.xx / moments.mass - mean.x * mean.x, 0) + cellWidth * cellWidth / 12
        let yy = max(moments.yy / moments.mass - mean.y * mean.y, 0) + cellHeight * cellHeight / 12
        let xy = moments.xy / moments.mass - mean.x * mean.y
        return (origin + mean, PositionCovariance(xx: xx, xy: xy, yy: yy))
    }

    /// Weighted sums of the cells: mass, first and second moments (relative coordinates).
    private struct Moments {
        var mass = 0.0, x = 0.0, y = 0.0, xx = 0.0, xy = 0.0, yy = 0.0
    }

    // MARK: Several beacons: every cell

    private mutating func accumulateGrid(
        terms: [BeaconTerm], weights: [Double], active: [Int], planeZ: Double, offsetPrecision: Double,
        into moments: inout Moments
    ) {
        // Each beacon's ln d over the cells, from the cache (built for the beacons new to it).
        activeMaps.removeAll(keepingCapacity: true)
        for i in active {
            let t = terms[i]
            activeMaps.append(logDistanceMap(for: SIMD4(t.position.x, t.position.y, t.position.z, planeZ)))
        }
        let cells = cellX.count
        var best = -Double.infinity
        for c in 0..<cells {
            var sum2 = 0.0, sum1 = 0.0, total = 0.0
            for (k, i) in active.enumerated() {
                let t = terms[i]
                let r = t.offset + t.slope * maps[activeMaps[k] + c]
                let w = weights[i]
                sum2 += w * r * r
                sum1 += w * r
                total += w
            }
            let l = offsetPrecision > 0 ? -0.5 * (sum2 - sum1 * sum1 / (offsetPrecision + total)) : -0.5 * sum2
            logLikelihood[c] = l
            best = max(best, l)
        }
        accumulateCells(best: best, into: &moments)
    }

    /// Adds every cell at weight e^(``logLikelihood`` − `best`) to `moments`.
    private func accumulateCells(best: Double, into moments: inout Moments) {
        for c in cellX.indices {
            // Cells more than e⁻⁴⁰ below the best add nothing a Double can hold.
            let l = logLikelihood[c] - best
            guard l > -40 else { continue }
            let p = Foundation.exp(l)
            let x = cellX[c], y = cellY[c]
            moments.mass += p
            moments.x += p * x
            moments.y += p * y
            moments.xx += p * x * x
            moments.xy += p * x * y
            moments.yy += p * y * y
        }
    }

    /// The first index in ``maps`` of the ln d map of a beacon at `key` (x, y, z, receiver
    /// plane z), built if it is not cached. A full cache replaces its maps in turn, but never
    /// one that the current estimate uses (``activeMaps``); if all are in use it grows.
    private mutating func logDistanceMap(for key: SIMD4<Double>) -> Int {
        let cells = cellX.count
        if let index = mapKeys.firstIndex(of: key) { return index * cells }
        var index = mapKeys.count
        if mapKeys.count >= Self.cachedMaps {
            // The next map in turn that the current estimate does not use, if any.
            var tried = 0
            while tried < mapKeys.count && activeMaps.contains(nextMap * cells) {
                nextMap = (nextMap + 1) % mapKeys.count
                tried += 1
            }
            if tried < mapKeys.count {
                index = nextMap
                nextMap = (nextMap + 1) % mapKeys.count
            }
        }
        if index == mapKeys.count {
            mapKeys.append(key)
            maps.append(contentsOf: repeatElement(0, count: cells))
        } else {
            mapKeys[index] = key
        }
        for c in 0..<cells { maps[index * cells + c] = logDistance(cell: c, beacon: key) }
        return index * cells
    }

    /// ln d from cell `c`'s centre on the receiver plane to the beacon (`beacon`: x, y, z, plane
    /// z), d at least 1 cm.
    private func logDistance(cell c: Int, beacon: SIMD4<Double>) -> Double {
        let dx = cellX[c] + origin.x - beacon.x, dy = cellY[c] + origin.y - beacon.y, dz = beacon.w - beacon.z
        return 0.5 * Foundation.log(max(dx * dx + dy * dy + dz * dz, 1e-4))
    }

    // MARK: One beacon: log-distance profiles

    /// One log-distance bin of a profile: its cells' count, mean ln d and position sums
    /// (relative coordinates).
    private struct RadialBin: Sendable {
        var count = 0.0, logDistance = 0.0, x = 0.0, y = 0.0, xx = 0.0, xy = 0.0, yy = 0.0
    }

    /// The range in ``profileBins`` of the profile of a beacon at `key` (x, y, z, receiver
    /// plane z), built if it is not cached (replacing the oldest when the cache is full).
    private mutating func profile(for key: SIMD4<Double>) -> Range<Int> {
        if let index = profileKeys.firstIndex(of: key) {
            return index * Self.radialBins..<(index * Self.radialBins + profileUsed[index])
        }
        let index: Int
        if profileKeys.count < Self.cachedProfiles {
            index = profileKeys.count
            profileKeys.append(key)
            profileUsed.append(0)
            profileBins.append(contentsOf: repeatElement(RadialBin(), count: Self.radialBins))
        } else {
            index = nextProfile
            nextProfile = (nextProfile + 1) % Self.cachedProfiles
            profileKeys[index] = key
        }
        buildProfile(index, beacon: key)
        return index * Self.radialBins..<(index * Self.radialBins + profileUsed[index])
    }

    /// Sums the cells into log-distance bins between the nearest and farthest cell, and keeps
    /// the bins that hold any cell at the front of the profile's slots.
    private mutating func buildProfile(_ index: Int, beacon: SIMD4<Double>) {
        let base = index * Self.radialBins
        for k in base..<(base + Self.radialBins) { profileBins[k] = RadialBin() }
        var lo = Double.infinity, hi = -Double.infinity
        for c in cellX.indices {
            let l = logDistance(cell: c, beacon: beacon)
            logLikelihood[c] = l
            lo = min(lo, l)
            hi = max(hi, l)
        }
        let scale = hi > lo ? Double(Self.radialBins) / (hi - lo) : 0
        for c in cellX.indices {
            let l = logLikelihood[c]
            let x = cellX[c], y = cellY[c]
            let k = base + min(Int((l - lo) * scale), Self.radialBins - 1)
            profileBins[k].count += 1
            profileBins[k].logDistance += l
            profileBins[k].x += x
            profileBins[k].y += y
            profileBins[k].xx += x * x
            profileBins[k].xy += x * y
            profileBins[k].yy += y * y
        }
        var used = 0
        for k in base..<(base + Self.radialBins) where profileBins[k].count > 0 {
            var bin = profileBins[k]
            bin.logDistance /= bin.count
            profileBins[base + used] = bin
            used += 1
        }
        profileUsed[index] = used
    }

    /// Adds a one-beacon posterior from the profile bins `bins`: each bin at its mean ln d.
    private mutating func accumulateProfile(
        _ bins: Range<Int>, term: BeaconTerm, weight w: Double, offsetPrecision: Double,
        into moments: inout Moments
    ) {
        // ℓ = −½ c r² with c = w/(1 + w τ²) when the offset is estimated, w otherwise.
        let c = offsetPrecision > 0 ? w * offsetPrecision / (offsetPrecision + w) : w
        var best = -Double.infinity
        for k in bins {
            let r = term.offset + term.slope * profileBins[k].logDistance
            let l = -0.5 * c * r * r
            logLikelihood[k - bins.lowerBound] = l
            best = max(best, l)
        }
        for k in bins {
            // Bins more than e⁻⁴⁰ below the best add nothing a Double can hold.
            let l = logLikelihood[k - bins.lowerBound] - best
            guard l > -40 else { continue }
            let p = Foundation.exp(l)
            let bin = profileBins[k]
            moments.mass += p * bin.count
            moments.x += p * bin.x
            moments.y += p * bin.y
            moments.xx += p * bin.xx
            moments.xy += p * bin.xy
            moments.yy += p * bin.yy
        }
    }
}
