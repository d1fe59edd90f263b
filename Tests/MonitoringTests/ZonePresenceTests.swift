import BeaconModel
import Foundation
import Monitoring
import Testing

/// The zone estimate the engine reports: one zone or none from each position's probability mass,
/// filtered over time (``ZonePresence``).
@Suite("ZonePresence: the zone as an estimate")
struct ZonePresenceTests {
    /// Two 6 × 10 m rooms side by side (x 0–6 and 6–12), nothing beyond.
    static let floor = Floor(
        level: 0,
        zones: [
            Zone(
                id: "a",
                polygon: Polygon([Point2D(x: 0, y: 0), Point2D(x: 6, y: 0), Point2D(x: 6, y: 10), Point2D(x: 0, y: 10)])
            ),
            Zone(
                id: "b",
                polygon: Polygon([
                    Point2D(x: 6, y: 0), Point2D(x: 12, y: 0), Point2D(x: 12, y: 10), Point2D(x: 6, y: 10)
                ]))
        ])

    @Test("the masses: a point deep inside holds nearly all of it; one on the shared wall splits it in half")
    func masses() {
        var masses: [Double] = []
        ZonePresence.zoneMasses(
            position: Point2D(x: 3, y: 5), xx: 0.25, xy: 0, yy: 0.25, floor: Self.floor, into: &masses)
        #expect(masses[0] > 0.999 && masses[1] < 1e-3)
        ZonePresence.zoneMasses(position: Point2D(x: 6, y: 5), xx: 1, xy: 0.3, yy: 1, floor: Self.floor, into: &masses)
        // The rule's centre node lies on the wall; the other nodes split evenly.
        #expect(abs(masses[0] + masses[1] - 1) < 1e-12)
        #expect(abs(masses[0] - masses[1]) <= 0.54)
        ZonePresence.zoneMasses(position: Point2D(x: 30, y: 5), xx: 1, xy: 0, yy: 1, floor: Self.floor, into: &masses)
        #expect(masses == [0, 0])
    }

    @Test("a walk from room a to room b: a, then b within a few seconds of crossing, never both, none outside")
    func walkAcross() {
        var presence = ZonePresence()
        var reported: [(time: Double, zone: String?)] = []
        for t in 0..<40 {
            // 0.27 m/s along y = 5 from x = 1 to 11.5 (a slow stroll); the wall at x = 6 is crossed
            // at t ≈ 18.5 s.
            let x = 1.0 + Double(t) * 0.27
            let r = presence.update(
                time: Double(t), position: Point2D(x: x, y: 5), xx: 1, xy: 0, yy: 1, floor: Self.floor)
            reported.append((Double(t), r.zone))
            #expect(r.probability > 0 && r.probability <= 1)
        }
        #expect(reported.first?.zone == "a")
        #expect(reported.last?.zone == "b")
        // One change only, after the crossing and within 4 s of it (0.6 is needed to switch).
        let changes = zip(reported, reported.dropFirst()).filter { $0.zone != $1.zone }
        #expect(changes.count == 1)
        if let change = changes.first { #expect(change.1.time > 18.5 && change.1.time - 18.5 <= 4) }
        let outside = presence.update(
            time: 80, position: Point2D(x: 40, y: 40), xx: 0.5, xy: 0, yy: 0.5, floor: Self.floor)
        #expect(outside.zone == nil)
    }

    @Test("a phone standing on the wall with 1 m of jitter: few changes, none back within 5 s")
    func jitterOnTheWall() {
        var presence = ZonePresence()
        var state: UInt64 = 42
        func uniform() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        var runs: [(zone: String?, start: Double)] = []
        for t in 0..<300 {
            // The dot wanders ±1 m around the wall (uniform), as a still phone's does.
            let x = 6 + 2 * (uniform() - 0.5), y = 5 + 2 * (uniform() - 0.5)
            let zone = presence.update(
                time: Double(t), position: Point2D(x: x, y: y), xx: 1, xy: 0, yy: 1, floor: Self.floor
            )
            .zone
            if runs.last?.zone != zone || runs.isEmpty { runs.append((zone, Double(t))) }
        }
        // A plain point-in-polygon test changes zone about every other second here.
        #expect(runs.count <= 30)
        for k in runs.indices.dropFirst(2) where runs[k].zone == runs[k - 2].zone {
            #expect(runs[k].start - runs[k - 1].start >= 5)
        }
    }

    /// Three 6 × 10 m rooms in a row, a | b | c (x 0–6, 6–12, 12–18).
    static let row = Floor(
        level: 0,
        zones: ["a", "b", "c"].enumerated().map { k, id in
            let x0 = 6 * Double(k)
            return Zone(
                id: id,
                polygon: Polygon([
                    Point2D(x: x0, y: 0), Point2D(x: x0 + 6, y: 0), Point2D(x: x0 + 6, y: 10), Point2D(x: x0, y: 10)
                ]))
        })

    @Test("one position deep in c, two rooms from a, does not take the zone from a; staying in c takes it within 3 s")
    func outlierInAFarZone() {
        // With a uniform transition (anywhere, a quarter each) the outlier takes c's probability
        // to about 0.8 and the zone to c, and the re-entry rule then keeps a out for 5 s.
        var presence = ZonePresence()
        var reported: [String?] = []
        for t in 0..<30 {
            let x = t == 15 ? 15.0 : 3.0
            let r = presence.update(
                time: Double(t), position: Point2D(x: x, y: 5), xx: 1, xy: 0, yy: 1, floor: Self.row)
            reported.append(r.zone)
        }
        #expect(reported.allSatisfy { $0 == "a" })
        // The same jump to c and staying there is a move: c within 3 s.
        var moved = ZonePresence()
        var first: Double?
        for t in 0..<30 {
            let x = t < 15 ? 3.0 : 15.0
            let r = moved.update(time: Double(t), position: Point2D(x: x, y: 5), xx: 1, xy: 0, yy: 1, floor: Self.row)
            if r.zone == "c", first == nil { first = Double(t) }
        }
        #expect(first.map { $0 - 15 <= 3 } == true)
    }

    /// ``floor`` with the outline its two rooms fill (x 0–12, y 0–10).
    static let outlined = Floor(
        level: 0,
        outline: Polygon([Point2D(x: 0, y: 0), Point2D(x: 12, y: 0), Point2D(x: 12, y: 10), Point2D(x: 0, y: 10)]),
        zones: floor.zones)

    @Test("a position by an outer wall: the spread beyond the outline is not 'in no zone'; outside it, untruncated")
    func truncatedToTheOutline() {
        var masses: [Double] = []
        // σ = 2 m, 0.2 m from the west wall: the rule's nodes at x − 5.71 and x − 2.71 and at
        // y ± 5.71 fall outside, weight 1 − (0.5333 + 0.2221 + 0.0113)(1 − 2 × 0.0113) ≈ 0.251.
        let position = Point2D(x: 0.2, y: 5)
        ZonePresence.zoneMasses(position: position, xx: 4, xy: 0, yy: 4, floor: Self.floor, into: &masses)
        #expect(abs(masses[0] - 0.7494) < 1e-3 && masses[1] == 0)
        ZonePresence.zoneMasses(position: position, xx: 4, xy: 0, yy: 4, floor: Self.outlined, into: &masses)
        #expect(abs(masses[0] - 1) < 1e-12 && masses[1] == 0)
        // On the shared wall the split is the untruncated one (nothing of it falls outside).
        var plain: [Double] = []
        ZonePresence.zoneMasses(position: Point2D(x: 6, y: 5), xx: 1, xy: 0.3, yy: 1, floor: Self.floor, into: &plain)
        ZonePresence.zoneMasses(
            position: Point2D(x: 6, y: 5), xx: 1, xy: 0.3, yy: 1, floor: Self.outlined, into: &masses)
        #expect(zip(masses, plain).allSatisfy { abs($0 - $1) < 1e-12 })
        // No node inside the outline (a position far outside it): the masses untruncated, none.
        ZonePresence.zoneMasses(
            position: Point2D(x: 30, y: 5), xx: 1, xy: 0, yy: 1, floor: Self.outlined, into: &masses)
        #expect(masses == [0, 0])

        // A phone standing at the west wall, its dot 5 cm beyond it, with 2 m of spread: 0.77 of
        // each position lies outside. Truncated it stays in a; without the outline "none" takes over.
        let beyond = Point2D(x: -0.05, y: 5)
        var held = ZonePresence(), unheld = ZonePresence()
        var zones: Set<String?> = [], plainZones: Set<String?> = []
        for t in 0..<60 {
            zones.insert(
                held.update(time: Double(t), position: beyond, xx: 4, xy: 0, yy: 4, floor: Self.outlined).zone)
            plainZones.insert(
                unheld.update(time: Double(t), position: beyond, xx: 4, xy: 0, yy: 4, floor: Self.floor).zone)
        }
        #expect(zones == ["a"])
        #expect(plainZones.contains(nil))
    }
}
