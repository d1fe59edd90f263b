import Foundation
import IndoorPositioning
import TestSupport
import Testing

/// A beacon that is 6 m away from where the plan says (moved towards the room's middle after
/// the site was surveyed): the engine's consistency watch finds it over the epochs and sets it
/// apart, where a single fix cannot tell it from noise. Only beacons with measured models (here
/// the survey's) are set apart; on the plan's generic values the watch only weighs them.
@Suite("Engine: a misplaced beacon")
struct EngineRobustnessTests {
    struct Case {
        var clean = 0.0, watched = 0.0, unwatched = 0.0, setApart = 0.0, othersSetApart = 0
    }

    static func run(seed: UInt64, beacon: Int, surveyed: Bool = true) throws -> Case {
        let clean = try SimulatedSite(seed: seed)
        let b = clean.walk.beacons[beacon]
        let dx = 12 - b.x, dy = 8 - b.y, length = (dx * dx + dy * dy).squareRoot()
        // The plan is off by 6 m: the beacon really stands 6 m further in than planned.
        let site = try SimulatedSite(seed: seed, misplaced: (beacon, Point2D(x: -6 * dx / length, y: -6 * dy / length)))
        var off = PositioningEngine.Configuration()
        off.excludesInconsistentBeacons = false
        let survey = surveyed ? site.survey : [:]
        var engine = try PositioningEngine(plan: site.plan, calibration: survey)
        var reports: [PositionReport] = []
        var flagged = 0, others = 0
        for sample in site.samples.sorted(by: { $0.timestamp < $1.timestamp }) {
            engine.push(sample)
            for report in engine.pull() {
                reports.append(report)
                let apart = engine.inconsistentBeacons
                if apart.contains(SimulatedSite.identity(beacon)) { flagged += 1 }
                others += apart.filter { $0 != SimulatedSite.identity(beacon) }.count
            }
        }
        reports += engine.finish()
        return Case(
            clean: clean.rmse(try PositioningEngine.locate(clean.samples, plan: clean.plan, calibration: survey)),
            watched: site.rmse(reports),
            unwatched: site.rmse(
                try PositioningEngine.locate(site.samples, plan: site.plan, calibration: survey, configuration: off)),
            setApart: Double(flagged) / Double(reports.count), othersSetApart: others)
    }

    @Test("the misplaced beacon is set apart in most epochs and the RMSE stays within 1.4× the clean walk's")
    func misplacedBeacon() throws {
        var setApart = 0.0, n = 0.0
        for seed: UInt64 in [1, 2, 3, 4] {
            for beacon in [0, 3, 5] {
                let c = try Self.run(seed: seed, beacon: beacon)
                print(
                    String(
                        format:
                            "misplaced beacon %d, seed %llu: clean %.3f m, watched %.3f m (%.2f×), unwatched %.3f m (%.2f×), set apart in %.0f %% of epochs",
                        beacon, seed, c.clean, c.watched, c.watched / c.clean, c.unwatched, c.unwatched / c.clean,
                        100 * c.setApart))
                // Measured 1.02–1.35× (it was within 1.3× while each fix also rejected up to two
                // beacons by a χ² test; the engine no longer does, which costs here and gains on
                // every real data set, where the test rejected good beacons: Docs/Reference/Trilateration.md).
                #expect(c.watched <= 1.4 * c.clean)
                #expect(c.watched < c.unwatched)
                #expect(c.setApart >= 0.4)  // measured 50–93 %
                #expect(c.othersSetApart == 0)
                setApart += c.setApart
                n += 1
            }
        }
        #expect(setApart / n >= 0.75)
    }

    @Test("an epoch that hears only a set-apart beacon still reports the track, predicted, as with the watch off")
    func onlySetApartBeaconHeard() throws {
        let beacon = 0
        let clean = try SimulatedSite(seed: 2)
        let b = clean.walk.beacons[beacon]
        let dx = 12 - b.x, dy = 8 - b.y, length = (dx * dx + dy * dy).squareRoot()
        let site = try SimulatedSite(seed: 2, misplaced: (beacon, Point2D(x: -6 * dx / length, y: -6 * dy / length)))
        let misplaced = SimulatedSite.identity(beacon)
        let samples = site.samples.sorted { $0.timestamp < $1.timestamp }
        // When is the beacon set apart, and which epochs (their ends) follow?
        var engine = try PositioningEngine(plan: site.plan, calibration: site.survey)
        var ends: [Double] = []
        var apartSince: Double?
        for sample in samples {
            engine.push(sample)
            for report in engine.pull() {
                ends.append(report.timestamp)
                if apartSince == nil, engine.inconsistentBeacons.contains(misplaced) { apartSince = report.timestamp }
            }
        }
        let since = try #require(apartSince)
        // Ten later epochs in which only the misplaced beacon is heard (every other beacon's
        // samples of those seconds taken out).
        let quiet = ends.filter { $0 > since + 5 }.prefix(40).enumerated().filter { $0.offset % 4 == 0 }.map(\.element)
        try #require(quiet.count == 10)
        var thinned = samples.filter { s in
            s.identity == misplaced || !quiet.contains { s.timestamp >= $0 - 1 && s.timestamp < $0 }
        }
        for end in quiet { try #require(thinned.contains { $0.timestamp >= end - 1 && $0.timestamp < end }) }
        // A phone that appears in the first of those seconds and hears only the set-apart beacon.
        let newcomer = thinned.filter { $0.timestamp >= quiet[0] - 1 && $0.timestamp < quiet[0] }.map {
            RSSISample(timestamp: $0.timestamp, identity: $0.identity, rssi: $0.rssi, device: "newcomer")
        }
        try #require(!newcomer.isEmpty)
        thinned = (thinned + newcomer).sorted { $0.timestamp < $1.timestamp }

        var watched = try PositioningEngine(plan: site.plan, calibration: site.survey)
        var reports: [PositionReport] = []
        var apartAtQuiet = 0
        for sample in thinned {
            watched.push(sample)
            for report in watched.pull() {
                reports.append(report)
                if quiet.contains(report.timestamp), watched.inconsistentBeacons.contains(misplaced) {
                    apartAtQuiet += 1
                }
            }
        }
        reports += watched.finish()
        var off = PositioningEngine.Configuration()
        off.excludesInconsistentBeacons = false
        let unwatched = try PositioningEngine.locate(
            thinned, plan: site.plan, calibration: site.survey, configuration: off)
        // The beacon stayed set apart through those epochs, and each of them was still reported:
        // the track predicted, fusing no sample.
        #expect(apartAtQuiet >= 8)
        #expect(watched.statistics.epochsWithoutFix == 0)
        #expect(reports.count == unwatched.count)
        let atQuiet = reports.filter { quiet.contains($0.timestamp) && $0.device == nil }
        #expect(atQuiet.count == 10)
        #expect(atQuiet.filter { $0.beaconCount == 0 }.count == apartAtQuiet)
        #expect(atQuiet.allSatisfy { $0.source == .tracked && $0.accuracy.isFinite })
        // The newcomer has no track to predict: the set-apart beacon places it, as it does with
        // the watch off.
        #expect(reports.filter { $0.device == "newcomer" }.count == 1)
        #expect(unwatched.filter { $0.device == "newcomer" }.count == 1)
        // A predicted report is no more confident than the one before it.
        let walker = reports.filter { $0.device == nil }
        for report in atQuiet where report.beaconCount == 0 {
            let index = try #require(walker.firstIndex { $0.timestamp == report.timestamp })
            #expect(report.accuracy >= walker[index - 1].accuracy)
        }
    }

    @Test("on the plan's generic values no beacon is set apart, a misplaced one neither: it is only weighed down")
    func genericValues() throws {
        for seed: UInt64 in [1, 2, 3, 4] {
            let c = try Self.run(seed: seed, beacon: 0, surveyed: false)
            print(
                String(
                    format: "generic values, misplaced beacon 0, seed %llu: clean %.3f m, watched %.3f m (%.2f×)",
                    seed, c.clean, c.watched, c.watched / c.clean))
            #expect(c.setApart == 0)
            #expect(c.othersSetApart == 0)
            // Nothing set apart: the watch's weights alone, the same with exclusion on or off.
            #expect(c.watched == c.unwatched)
        }
    }

    @Test("on walks where every beacon is where the plan says, none is ever set apart")
    func noFalseAlarms() throws {
        for seed: UInt64 in 1...8 {
            let site = try SimulatedSite(seed: seed)
            var engine = try PositioningEngine(plan: site.plan, calibration: site.survey)
            for sample in site.samples.sorted(by: { $0.timestamp < $1.timestamp }) {
                engine.push(sample)
                if !engine.pull().isEmpty { #expect(engine.inconsistentBeacons.isEmpty) }
            }
            #expect(engine.consistencyScores.allSatisfy { $0.score < 2 })
        }
    }

    @Test("a sparse site (6 beacons) never sets a beacon apart, even one misplaced by 12 m: it needs every one")
    func sparseSite() throws {
        var configuration = WalkSimulator.Configuration()
        configuration.beaconLayout = [
            Point2D(x: 1, y: 1), Point2D(x: 12, y: 1), Point2D(x: 23, y: 1),
            Point2D(x: 23, y: 15), Point2D(x: 12, y: 15), Point2D(x: 1, y: 15)
        ]
        let site = try SimulatedSite(seed: 3, configuration: configuration, misplaced: (1, Point2D(x: 0, y: 12)))
        var engine = try PositioningEngine(plan: site.plan, calibration: site.survey)
        var highest = 0.0
        for sample in site.samples.sorted(by: { $0.timestamp < $1.timestamp }) {
            engine.push(sample)
            if !engine.pull().isEmpty {
                #expect(engine.inconsistentBeacons.isEmpty)
                for entry in engine.consistencyScores where entry.beacon == SimulatedSite.identity(1) {
                    highest = max(highest, entry.score)
                }
            }
        }
        print(String(format: "sparse site: the misplaced beacon's score peaked at %.2f", highest))
        // The misplaced beacon does stand out; it is kept only because the site is sparse.
        let scored = highest > 2.5
        #expect(scored)
    }
}
