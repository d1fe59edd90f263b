import BeaconModel
import Foundation
import Ranging

/// Where on a floor with walls a device's readings fit best, searched on a grid: the start of
/// its fix. With walls the likelihood is a different surface in each room (a beacon behind a
/// wall is expected weaker), so a solver started in the wrong room stays there; the grid
/// scores every room at once.
///
/// Built once per floor with walls: grid points every ``spacing`` metres over the outline's
/// bounding box (or the beacons' with 2 m around), at most ``maximumPoints`` and at most
/// ``maximumWallTests`` / (beacons × walls) (the spacing grows to fit; at least 64 points), each
/// with the walls' loss to every beacon of the floor. A search scores each point
/// by the readings' squared residuals with the device offset profiled out,
///
///     S(g) = Σᵢ wᵢ rᵢ² − (Σᵢ wᵢ rᵢ)² / Σᵢ wᵢ,   rᵢ = ȳᵢ − (P₀ᵢ − 10 nᵢ log₁₀ dᵢ(g) − Lᵢ(g)),
///
/// wᵢ = mᵢ / σᵢ² (m readings averaged), and returns the best point. Cost per search: points ×
/// beacons heard (a logarithm each); nothing allocated.
struct WallGrid: Sendable {
    /// Grid spacing, metres.
    let spacing: Double
    /// The grid's points.
    private let points: [Point2D]
    /// The walls' loss from each point to each beacon of the floor, dB: `losses[p * count + i]`
    /// for local beacon index i.
    private let losses: [Float]
    /// Local index of each table slot on this floor (−1: another floor).
    private let local: [Int]
    private let count: Int
    /// The receiver's height above the beacons' reference, metres (for the distances).
    private let receiverZ: Double

    /// The largest number of grid points.
    static let maximumPoints = 4096
    /// The most beacon–wall crossing tests a grid's building may take (5·10⁷, about 0.1 s), so
    /// that a floor with many walls and beacons does not stall the engine's start.
    static let maximumWallTests = 50_000_000

    init?(walls: FloorWalls, outline: Polygon?, level: Int, receiverZ: Double, beacons: BeaconTable) {
        guard !walls.isEmpty else { return nil }
        var local = Array(repeating: -1, count: beacons.count)
        var onFloor: [Point3D] = []
        for slot in 0..<beacons.count where beacons[slot].beacon.level == level {
            local[slot] = onFloor.count
            onFloor.append(beacons[slot].beacon.position)
        }
        guard !onFloor.isEmpty else { return nil }
        var xs: [Double], ys: [Double]
        if let outline {
            xs = outline.vertices.map(\.x)
            ys = outline.vertices.map(\.y)
        } else {
            xs = onFloor.map(\.x).flatMap { [$0 - 2, $0 + 2] }
            ys = onFloor.map(\.y).flatMap { [$0 - 2, $0 + 2] }
        }
        let x0 = xs.min()!, x1 = xs.max()!, y0 = ys.min()!, y1 = ys.max()!
        let area = max((x1 - x0) * (y1 - y0), 1e-6)
        let affordable = Self.maximumWallTests / max(onFloor.count * walls.count, 1)
        let pointBudget = max(64, min(Self.maximumPoints, affordable))
        let spacing = max(1.0, (area / Double(pointBudget)).squareRoot())
        var points: [Point2D] = []
        var y = y0 + spacing / 2
        while y < y1 {
            var x = x0 + spacing / 2
            while x < x1 {
                let p = Point2D(x: x, y: y)
                if outline?.contains(p) ?? true { points.append(p) }
                x += spacing
            }
            y += spacing
        }
        guard !points.isEmpty else { return nil }
        var losses: [Float] = []
        losses.reserveCapacity(points.count * onFloor.count)
        for p in points {
            for b in onFloor { losses.append(Float(walls.loss(b.x, b.y, p.x, p.y))) }
        }
        self.spacing = spacing
        self.points = points
        self.losses = losses
        self.local = local
        self.count = onFloor.count
        self.receiverZ = receiverZ
    }

    /// The grid point where `observations` (their beacons' slots in `slots`, same order) fit
    /// best; nil when none are on this floor.
    func best(_ observations: [BeaconObservation], slots: [Int]) -> Point2D? {
        var bestScore = Double.infinity
        var best: Point2D?
        for (p, point) in points.enumerated() {
            var s0 = 0.0, s1 = 0.0, s2 = 0.0
            for (k, observation) in observations.enumerated() {
                let i = local[slots[k]]
                guard i >= 0 else { continue }
                let b = observation.position
                let dx = point.x - b.x, dy = point.y - b.y, dz = receiverZ - b.z
                let d2 = max(dx * dx + dy * dy + dz * dz, 1e-4)
                let model = observation.model
                let expected = model.expectedRSSI(squaredDistance: d2) - Double(losses[p * count + i])
                let w = Double(observation.count) / (model.sigma * model.sigma)
                let r = observation.meanRSSI - expected
                s0 += w
                s1 += w * r
                s2 += w * r * r
            }
            guard s0 > 0 else { continue }
            let score = s2 - s1 * s1 / s0
            if score < bestScore {
                bestScore = score
                best = point
            }
        }
        return best
    }
}
