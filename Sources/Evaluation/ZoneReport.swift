import Foundation

/// The zone figures (``ZoneScore``) of `indoorpos evaluate` as text, Markdown rows and JSON.
/// Undefined shares and medians print as "—" (null in JSON), never as NaN.
enum ZoneReport {
    /// Each rule with its name in tables and its figures (the library only when scored).
    static func rules(_ score: ZoneScore) -> [(name: String, figures: ZoneFigures)] {
        (score.library.map { [("library", $0)] } ?? [])
            + [("point-in-polygon", score.pointInPolygon), ("debounced", score.debounced)]
    }

    static func percent(_ share: Double?, decimals: Int) -> String {
        share.map { String(format: "%.\(decimals)f", 100 * $0) + (decimals == 0 ? " %" : "%") } ?? "—"
    }

    static func latency(_ seconds: Double?) -> String {
        seconds.map { String(format: "%+.1f s", $0) } ?? "—"
    }

    static func twoAtOnce(_ figures: ZoneFigures, decimals: Int) -> String {
        figures.twoAtOnce.map { String(format: "%.\(decimals)f s", $0) } ?? "—"
    }

    /// The zone block of a run's text table: a blank line, a title, a row per rule, a legend.
    static func text(_ score: ZoneScore) -> [String] {
        let pad = EvaluationReport.padded
        let header =
            pad("zone rule", 18, true) + " " + pad("held", 7, false) + " " + pad("caught (±10 s)", 16, false) + " "
            + pad("median latency", 15, false) + " " + pad("false entries", 16, false) + " "
            + pad("changes (true)", 15, false) + " " + pad("two at once", 12, false)
        var lines = [
            "",
            "zones: \(score.pointInPolygon.rows) fixes scored, \(score.skipped) skipped (more than 1 s outside "
                + "the truth's time span, or of devices without truth)",
            header, String(repeating: "-", count: header.count)
        ]
        for (name, f) in rules(score) {
            lines.append(
                pad(name, 18, true) + " " + pad(percent(f.held, decimals: 1), 7, false) + " "
                    + pad("\(percent(f.caught, decimals: 1)) of \(f.trueEntries)", 16, false) + " "
                    + pad(latency(f.medianLatency), 15, false) + " "
                    + pad("\(percent(f.falseEntries, decimals: 1)) of \(f.reportedEntries)", 16, false) + " "
                    + pad("\(f.changes) (\(f.trueChanges))", 15, false) + " "
                    + pad(twoAtOnce(f, decimals: 1), 12, false))
        }
        if score.library == nil { lines.append("library: the fixes have no zone column") }
        lines.append(
            "held = share of fixes in the true zone; caught = true entries matched by an entry into the same zone "
                + "within ±10 s; latency > 0: late; two at once = longest time two zones were satisfied together "
                + "in the events")
        return lines
    }

    /// The Markdown table of zones.py: its header, then a row per run and rule.
    static func markdown(_ runs: [(label: String, zones: ZoneScore)]) -> [String] {
        var lines = [
            "| run | rule | held | entries caught (±10 s) | median latency | false entries | changes (true) | two at once |",
            "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |"
        ]
        for run in runs {
            let label = run.label.replacingOccurrences(of: "|", with: "\\|")
            for (name, f) in rules(run.zones) {
                lines.append(
                    "| \(label) | \(name) | \(percent(f.held, decimals: 0)) | "
                        + "\(percent(f.caught, decimals: 0)) of \(f.trueEntries) | \(latency(f.medianLatency)) | "
                        + "\(percent(f.falseEntries, decimals: 0)) of \(f.reportedEntries) | "
                        + "\(f.changes) (\(f.trueChanges)) | \(twoAtOnce(f, decimals: 0)) |")
            }
        }
        return lines
    }

    /// A run's `zones` object.
    struct JSON: Encodable {
        let score: ZoneScore

        enum Keys: String, CodingKey { case skipped, library, pointInPolygon, debounced }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(score.skipped, forKey: .skipped)
            if let library = score.library {
                try c.encode(Figures(figures: library, withTwoAtOnce: true), forKey: .library)
            } else {
                try c.encodeNil(forKey: .library)
            }
            try c.encode(Figures(figures: score.pointInPolygon, withTwoAtOnce: false), forKey: .pointInPolygon)
            try c.encode(Figures(figures: score.debounced, withTwoAtOnce: false), forKey: .debounced)
        }
    }

    struct Figures: Encodable {
        let figures: ZoneFigures
        let withTwoAtOnce: Bool

        enum Keys: String, CodingKey {
            case rows, held, trueEntries, caught, medianLatency, reportedEntries, falseEntries, changes, trueChanges
            case twoAtOnce
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            let f = figures
            for (key, value) in [
                (Keys.rows, f.rows), (.trueEntries, f.trueEntries), (.reportedEntries, f.reportedEntries),
                (.changes, f.changes), (.trueChanges, f.trueChanges)
            ] {
                try c.encode(value, forKey: key)
            }
            var shares: [(Keys, Double?)] = [
                (.held, f.held), (.caught, f.caught), (.medianLatency, f.medianLatency), (.falseEntries, f.falseEntries)
            ]
            if withTwoAtOnce { shares.append((.twoAtOnce, f.twoAtOnce)) }
            for (key, value) in shares {
                if let value { try c.encode(value, forKey: key) } else { try c.encodeNil(forKey: key) }
            }
        }
    }
}
