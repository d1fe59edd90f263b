import BeaconModel
import Foundation
import Ranging

/// How much the samples that teach each beacon's model repeat one another: the design effect
/// of samples clustered by place.
///
/// Shadowing is a property of the place (it decorrelates with the distance the phone moves,
/// exp(−Δd/d_c) with d_c of one to a few metres indoors: Gudmundson, *Electronics Letters*
/// 27(23), 1991), so a phone that stays in one spot hears each beacon with the same error
/// sample after sample. A fit that counts those samples as independent states standard errors
/// of P₀ and n far too small: a phone held still at five points gives five places' worth of
/// evidence, not eight hundred samples'.
///
/// The pairs of one beacon are grouped by device and by the ``cellSize`` square cell of their
/// (estimated) position. The intraclass correlation ρ of the residuals (RSSI less the model,
/// the device's offset and the walls' loss) is the one-way random-effects ANOVA estimate pooled
/// over the beacons, ρ = s²_between / (s²_between + s²_within) with
/// s²_between = max(0, (MSB − MSW) / n₀) (Searle, Casella & McCulloch, *Variance Components*,
/// 1992, §3.6), and each beacon's design effect is Kish's (*Survey Sampling*, 1965, §5.4)
///
///     deff = 1 + (m̄ − 1) ρ,   m̄ = Σ m_c² / Σ m_c,
///
/// with m_c the pairs in cell c. A standard error learned from the pairs is too small by √deff.
///
/// The between-cell component s²_between is itself reported (``placeVariance``): the variance of
/// the error a place keeps, which the reported radius of a phone that stays there considers
/// (``PlaceShadowing``).
struct PlaceClusters: Sendable {
    /// The side of a cell, metres: within the decorrelation distance of indoor shadowing
    /// (Gudmundson's d_c of a few metres; 2 m is the shelves' field of
    /// `Scripts/Research/site-stress.py` too, which no setting here was tuned on).
    static let cellSize = 2.0

    private struct Key: Hashable {
        var slot: Int32, device: Int32, x: Int32, y: Int32
    }
    private struct Cell {
        var count = 0.0, sum = 0.0, squares = 0.0
    }
    private var cells: [Key: Cell] = [:]
    private let slotCount: Int

    /// No pairs yet, for `slotCount` beacons.
    init(slotCount: Int) { self.slotCount = slotCount }

    /// Adds the residual `residual` (dB) of a pair of the beacon in `slot`, heard by `device` at
    /// `receiver` (building frame, metres). Non-finite values are ignored.
    mutating func add(slot: Int, device: Int, receiver: Point3D, residual: Double) {
        guard residual.isFinite, receiver.x.isFinite, receiver.y.isFinite, (0..<slotCount).contains(slot) else {
            return
        }
        let cx = (receiver.x / Self.cellSize).rounded(.down), cy = (receiver.y / Self.cellSize).rounded(.down)
        guard abs(cx) < 1e9, abs(cy) < 1e9 else { return }
        let key = Key(slot: Int32(slot), device: Int32(truncatingIfNeeded: device), x: Int32(cx), y: Int32(cy))
        cells[key, default: Cell()].count += 1
        cells[key]!.sum += residual
        cells[key]!.squares += residual * residual
    }

    /// Per beacon slot: its pairs Σ m_c, their residuals' sum, Σ m_c² and its cells.
    private var slotSums: (total: [Double], sums: [Double], squaredSizes: [Double], cells: [Int]) {
        var total = [Double](repeating: 0, count: slotCount)
        var sums = [Double](repeating: 0, count: slotCount)
        var squaredSizes = [Double](repeating: 0, count: slotCount)
        var cellsPerSlot = [Int](repeating: 0, count: slotCount)
        for (key, cell) in cells {
            let s = Int(key.slot)
            total[s] += cell.count
            sums[s] += cell.sum
            squaredSizes[s] += cell.count * cell.count
            cellsPerSlot[s] += 1
        }
        return (total, sums, squaredSizes, cellsPerSlot)
    }

    /// The pooled intraclass correlation ρ of the residuals within a cell, 0...1 (0 when the
    /// pairs cannot tell: no cell with two pairs, or no two cells of a beacon).
    var intraclassCorrelation: Double { variance(slotSums)?.correlation ?? 0 }

    /// The variance of the places' own shadowing, s²_between, dB²: how far the mean residual
    /// of one beacon at one place (device and cell) sits from the model, beyond what the
    /// pairs' scatter within the cell explains. Where no device heard a place twice (single
    /// scans), a place is the cell alone, across devices: the field belongs to the place, and
    /// the scans of other phones there are its replicates. Nil when even that cannot tell (no
    /// cell with two pairs, or no two cells of a beacon).
    var placeVariance: Double? {
        if let own = variance(slotSums)?.between { return own }
        var shared = PlaceClusters(slotCount: slotCount)
        for (key, cell) in cells {
            let place = Key(slot: key.slot, device: 0, x: key.x, y: key.y)
            shared.cells[place, default: Cell()].count += cell.count
            shared.cells[place]!.sum += cell.sum
            shared.cells[place]!.squares += cell.squares
        }
        return shared.variance(shared.slotSums)?.between
    }

    /// The one-way ANOVA of the residuals by cell within each beacon: s²_between and ρ; nil
    /// when the pairs cannot tell.
    private func variance(
        _ slots: (total: [Double], sums: [Double], squaredSizes: [Double], cells: [Int])
    ) -> (between: Double, correlation: Double)? {
        var within = 0.0, between = 0.0, pairs = 0.0
        for cell in cells.values {
            within += cell.squares - cell.sum * cell.sum / cell.count
            between += cell.sum * cell.sum / cell.count
            pairs += cell.count
        }
        var beacons = 0.0, groups = 0.0, sizeTerm = 0.0
        for s in 0..<slotCount where slots.total[s] > 0 {
            between -= slots.sums[s] * slots.sums[s] / slots.total[s]
            beacons += 1
            groups += Double(slots.cells[s])
            sizeTerm += slots.squaredSizes[s] / slots.total[s]
        }
        let withinFreedom = pairs - groups, betweenFreedom = groups - beacons
        guard withinFreedom > 0, betweenFreedom > 0 else { return nil }
        let msw = max(within, 0) / withinFreedom, msb = max(between, 0) / betweenFreedom
        let n0 = (pairs - sizeTerm) / betweenFreedom
        guard n0 > 0, msw.isFinite, msb.isFinite else { return nil }
        let component = max(0, (msb - msw) / n0)
        let rho = component / (component + msw)
        guard component.isFinite else { return nil }
        return (component, rho.isFinite ? min(max(rho, 0), 1) : 0)
    }

    /// Each beacon's design effect 1 + (m̄ − 1) ρ, at least 1 (1 for a beacon without pairs).
    var designEffects: [Double] {
        let slots = slotSums
        let rho = variance(slots)?.correlation ?? 0
        return (0..<slotCount).map { s in
            guard slots.total[s] > 0 else { return 1 }
            return max(1, 1 + (slots.squaredSizes[s] / slots.total[s] - 1) * rho)
        }
    }
}
