import Foundation
import PositioningIO
import Testing

@testable import Evaluation

/// Zone figures (the rules of `Scripts/reference/zones.py`) on a hand-made two-zone plan, with
/// every figure worked out by hand.
///
/// The plan: `west` is the square (0, 0)–(10, 10), `east` (12, 0)–(22, 10); the strip between is
/// no zone. Device `d` walks (y = 5) in `west` at x = 5 until t = 19, in `east` at x = 17 from
/// t = 20 to 59 and back in `west` from t = 60 to 80 (true entries: east at 20, west at 60).
/// One fix per second, t = 0…80 (81 fixes), plus one at t = −2 (more than 1 s before the truth:
/// skipped) and two of device `ghost`, which the truth lacks (skipped).
@Suite("zone figures")
struct ZoneScoreTests {
    static let planJSON = """
        {"floors": [{"level": 0, "zones": [
          {"id": "west", "polygon": [[0, 0], [10, 0], [10, 10], [0, 10]]},
          {"id": "east", "polygon": [[12, 0], [22, 0], [22, 10], [12, 10]]}]}]}
        """

    static var zones: PlanZones {
        get throws { PlanZones(plan: try FloorPlan(jsonData: Data(planJSON.utf8))) }
    }

    static let truthCSV = "timestamp,x,y,device\n0,5,5,d\n19,5,5,d\n20,17,5,d\n59,17,5,d\n60,5,5,d\n80,5,5,d\n"

    /// The library's zone: west until t = 22, east from 23 (an entry 3 s late), none at t = 40
    /// and east again at 41 (a flap: a false entry, 21 s after the true one), west from 60.
    static func libraryZone(_ t: Int) -> String {
        switch t {
        case ..<23: return "west"
        case 40: return ""
        case ..<60: return "east"
        default: return "west"
        }
    }

    /// The fix's x: 5 (west) until 19, 11 (no zone) at 20, 17 (east) from 21 with one fix at
    /// x = 5 (west) at t = 30, 5 from 60.
    static func fixX(_ t: Int) -> Int {
        switch t {
        case ..<20: return 5
        case 20: return 11
        case 30: return 5
        case ..<60: return 17
        default: return 5
        }
    }

    static var fixesCSV: String {
        var lines = ["timestamp,x,y,device,zone", "-2,5,5,d,west"]
        for t in 0...80 { lines.append("\(t),\(fixX(t)),5,d,\(libraryZone(t))") }
        lines += ["3,5,5,ghost,west", "4,5,5,ghost,west"]
        return lines.joined(separator: "\n") + "\n"
    }

    static let eventsCSV = """
        timestamp,region,state,device
        0,site,satisfied,d
        10,west,satisfied,d
        25,east,satisfied,d
        27,west,unsatisfied,d
        50,west,satisfied,d
        56,east,unsatisfied,d
        0,west,satisfied,e
        1,east,satisfied,e

        """

    static func score(events: Bool = true) throws -> ZoneScore {
        ZoneScore(
            zones: try zones, fixes: try TrackTable.read(text: fixesCSV), truth: try TrackTable.read(text: truthCSV),
            events: events ? try RegionEvent.read(text: eventsCSV) : nil)
    }

    @Test("the library's zone column: a late entry of 3 s, a flap that is a false entry")
    func library() throws {
        let score = try Self.score()
        #expect(score.skipped == 3)
        let f = try #require(score.library)
        #expect(f.rows == 81)
        // Wrong at t = 20, 21, 22 (west, truly east) and t = 40 (none, truly east).
        #expect(f.heldRows == 77 && f.held == 77.0 / 81)
        #expect(f.trueEntries == 2 && f.caughtEntries == 2 && f.caught == 1)
        // east at 23 for 20 (+3 s), west at 60 for 60 (0 s): median 1.5 s.
        #expect(f.latencies == [3, 0] && f.medianLatency == 1.5)
        // east at 23, east at 41 (no true entry into east within 10 s), west at 60.
        #expect(f.reportedEntries == 3 && f.falseEntryCount == 1 && f.falseEntries == 1.0 / 3)
        // west→east, east→none, none→east, east→west; the truth: west→east, east→west.
        #expect(f.changes == 4 && f.trueChanges == 2)
        // d holds west and east together 25…27 (2 s) and 50…56 (6 s); e's stretch never closes.
        #expect(f.twoAtOnce == 6)
        #expect(try Self.score(events: false).library?.twoAtOnce == nil)
    }

    @Test("point in polygon: a step in no zone and a one-fix flap; the 3-fix debounce smooths it")
    func pointInPolygon() throws {
        let score = try Self.score()
        let p = score.pointInPolygon
        #expect(p.rows == 81 && p.heldRows == 79)  // wrong at t = 20 (none) and t = 30 (west)
        // Reported entries: east at 21, west at 30, east at 31, west at 60.
        #expect(p.reportedEntries == 4)
        #expect(p.trueEntries == 2 && p.caughtEntries == 2 && p.latencies == [1, 0] && p.medianLatency == 0.5)
        // west at 30 (the true west entry is at 60) and east at 31 (11 s after the true one).
        #expect(p.falseEntryCount == 2 && p.falseEntries == 0.5)
        #expect(p.changes == 5 && p.trueChanges == 2)
        #expect(p.twoAtOnce == nil)
        // Debounced: west until 22, east from 23 (third east fix in a row) to 61, west from 62.
        let d = score.debounced
        #expect(d.rows == 81 && d.heldRows == 76)  // wrong at 20, 21, 22, 60, 61
        #expect(d.reportedEntries == 2 && d.caughtEntries == 2 && d.latencies == [3, 2] && d.medianLatency == 2.5)
        #expect(d.falseEntryCount == 0 && d.falseEntries == 0)
        #expect(d.changes == 2 && d.trueChanges == 2)
    }

    @Test("no zone column: no library figures; no rows: undefined shares are nil, false entries 0")
    func undefined() throws {
        let fixes = try TrackTable.read(text: "timestamp,x,y\n100,5,5\n")
        let truth = try TrackTable.read(text: "timestamp,x,y\n0,5,5\n1,5,5\n")
        let score = ZoneScore(zones: try Self.zones, fixes: fixes, truth: truth)
        #expect(score.library == nil && score.skipped == 1)
        let p = score.pointInPolygon
        #expect(p.rows == 0 && p.held == nil && p.caught == nil && p.medianLatency == nil && p.falseEntries == 0)
        let text = EvaluationReport.format(
            [EvaluationRun(label: "x", evaluation: TrackScore(fixes: fixes, truth: truth), zones: score)], as: .markdown
        )
        #expect(text.contains("| x | point-in-polygon | — | — of 0 | — | 0 % of 0 | 0 (0) | — |"))
        #expect(!text.contains("nan") && !text.contains("library"))
        let json = EvaluationReport.format(
            [EvaluationRun(label: "x", evaluation: TrackScore(fixes: fixes, truth: truth), zones: score)], as: .json)
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        let zones = try #require(object?["zones"] as? [String: Any])
        #expect(zones["library"] is NSNull)
        #expect((zones["pointInPolygon"] as? [String: Any])?["held"] is NSNull)
    }

    @Test("the true zone: interpolated, on the earlier row's floor, ±1 s beyond the span, one-row truth")
    func trueZone() throws {
        let zones = try Self.zones
        let track = ZoneScore.ordered(
            try TrackTable.read(text: "timestamp,x,y,floor\n0,5,5,0\n10,17,5,0\n20,17,5,1\n30,17,5,1\n").tracks[""]
                ?? [])
        #expect(ZoneScore.trueZone(zones: zones, track: track, at: -1) == "west")
        #expect(ZoneScore.trueZone(zones: zones, track: track, at: -1.5) == nil)
        #expect(ZoneScore.trueZone(zones: zones, track: track, at: 5) == "")  // x = 11
        #expect(ZoneScore.trueZone(zones: zones, track: track, at: 6) == "east")  // x = 12.2
        #expect(ZoneScore.trueZone(zones: zones, track: track, at: 15) == "east")  // floor 0 (the row before)
        #expect(ZoneScore.trueZone(zones: zones, track: track, at: 25) == "")  // floor 1 has no zones
        #expect(ZoneScore.trueZone(zones: zones, track: track, at: 31) == "")  // the last two rows, floor 1
        #expect(ZoneScore.trueZone(zones: zones, track: track, at: 31.5) == nil)
        let one = try TrackTable.read(text: "timestamp,x,y\n3,5,5\n").tracks[""] ?? []
        #expect(ZoneScore.trueZone(zones: zones, track: one, at: 3.9) == "west")
        #expect(ZoneScore.trueZone(zones: zones, track: one, at: 4.1) == nil)
    }

    @Test("debounce and entries by zones.py's rules")
    func sequences() {
        #expect(
            ZoneDebounce.debounced(["a", "b", "b", "b", "", "a", "a", "a"])
                == ["a", "a", "a", "b", "b", "b", "b", "a"])
        let entries = ZoneEntry.entries(of: [(0, "a"), (1, ""), (2, "b"), (3, "b"), (4, "a")])
        #expect(entries == [ZoneEntry(time: 2, zone: "b"), ZoneEntry(time: 4, zone: "a")])
        #expect(ZoneEntry.entries(of: [(0, "a")]).isEmpty)
        // A true entry at 10 between reported entries at 7 and 13: the earlier counts (−3 s),
        // as zones.py's min over the entries in time order; 21 is beyond ±10 s of 10 (false).
        let figures = ZoneFigures(series: [
            "d": [(0, "", ""), (7, "a", ""), (8, "", ""), (10, "", "a"), (13, "a", "a"), (14, "", "a"), (21, "a", "a")]
                .map { ZoneStep(time: $0.0, reported: $0.1, truth: $0.2) }
        ])
        #expect(figures.trueEntries == 1 && figures.latencies == [-3] && figures.reportedEntries == 3)
        #expect(figures.falseEntryCount == 1)
    }

    @Test("the zone table: text, Markdown with zones.py's columns, JSON; without zones, no change")
    func report() throws {
        let fixes = try TrackTable.read(text: Self.fixesCSV), truth = try TrackTable.read(text: Self.truthCSV)
        let evaluation = TrackScore(fixes: fixes, truth: truth)
        let plain = EvaluationRun(label: "run", evaluation: evaluation)
        let zoned = EvaluationRun(label: "run", evaluation: evaluation, zones: try Self.score())
        for format in EvaluationFormat.allCases {
            let before = EvaluationReport.format([plain], as: format)
            let after = EvaluationReport.format([zoned], as: format)
            #expect(after.count > before.count)
            if format != .json { #expect(after.hasPrefix(before.dropLast())) }
        }
        let markdown = EvaluationReport.format([zoned], as: .markdown).split(separator: "\n").suffix(5)
        #expect(
            Array(markdown) == [
                "| run | rule | held | entries caught (±10 s) | median latency | false entries | changes (true) | two at once |",
                "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
                "| run | library | 95 % | 100 % of 2 | +1.5 s | 33 % of 3 | 4 (2) | 6 s |",
                "| run | point-in-polygon | 98 % | 100 % of 2 | +0.5 s | 50 % of 4 | 5 (2) | — |",
                "| run | debounced | 94 % | 100 % of 2 | +2.5 s | 0 % of 2 | 2 (2) | — |"
            ])
        let text = EvaluationReport.format([zoned], as: .text)
        #expect(text.contains("zones: 81 fixes scored, 3 skipped"))
        #expect(text.contains("library              95.1%"))
        let json = EvaluationReport.format([zoned], as: .json)
        let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        let zones = try #require(object?["zones"] as? [String: Any])
        let library = try #require(zones["library"] as? [String: Any])
        #expect(library["rows"] as? Int == 81 && library["medianLatency"] as? Double == 1.5)
        #expect(library["twoAtOnce"] as? Double == 6 && library["trueChanges"] as? Int == 2)
        #expect((zones["debounced"] as? [String: Any])?["twoAtOnce"] == nil)
        #expect(zones["skipped"] as? Int == 3)
    }
}
