import Foundation

/// Output formats of `indoorpos evaluate`.
public enum EvaluationFormat: String, Sendable, CaseIterable {
    /// A table per run: each device, then `overall`; errors in metres, shares in per cent.
    case text
    /// The metrics as JSON: `{"devices": {name: metrics}, "overall": metrics}` for one run (the
    /// shape `evaluate.py --json` prints, plus `p95`), `{"runs": [{"label", "devices",
    /// "overall"}]}` for several. Metrics: `count`, `skipped`, `rmse`, `median`, `p90`, `p95`
    /// (metres), `honesty`, `floorHitRate` (0…1), and the track's ``Steadiness``: `steps`,
    /// `pathRatio`, `medianStep`, `medianTrueStep` (metres), `stillSpeed` (m/s), `stillSteps`;
    /// null where there is no data. A run with zone figures (``ZoneScore``) adds `zones`:
    /// `{"skipped", "library", "pointInPolygon", "debounced"}`, each rule's figures `rows`,
    /// `held`, `trueEntries`, `caught`, `medianLatency` (seconds, positive: late),
    /// `reportedEntries`, `falseEntries`, `changes`, `trueChanges` (shares 0…1, null where
    /// undefined), and for the library `twoAtOnce` (seconds, null without events); `library` is
    /// null when the fixes have no `zone` column.
    case json
    /// A Markdown table with one row per run: `| run | RMSE (m) | median (m) | P90 (m) | honesty | fixes |`;
    /// with zone figures, a second table with a row per run and rule, the columns of
    /// `Scripts/reference/zones.py`: `| run | rule | held | entries caught (±10 s) | median latency |
    /// false entries | changes (true) | two at once |` ("—" where undefined).
    case markdown
}

/// One labelled evaluation (a fixes file scored against the truth).
public struct EvaluationRun: Sendable, Hashable {
    /// The name the run goes by in tables and charts.
    public var label: String
    /// Its scores.
    public var evaluation: TrackScore
    /// Its zone figures, when a plan with zones was given.
    public var zones: ZoneScore?

    /// A labelled run, with zone figures when `zones` is given.
    public init(label: String, evaluation: TrackScore, zones: ZoneScore? = nil) {
        self.label = label
        self.evaluation = evaluation
        self.zones = zones
    }
}

/// Formats evaluations as text, JSON or Markdown.
public enum EvaluationReport {
    /// `runs` in `format`, ending with a newline.
    public static func format(_ runs: [EvaluationRun], as format: EvaluationFormat) -> String {
        switch format {
        case .text: return runs.map { text($0, titled: runs.count > 1) }.joined(separator: "\n")
        case .json: return json(runs)
        case .markdown: return markdown(runs)
        }
    }

    static func cell(_ value: Double?, percent: Bool = false) -> String {
        guard let value else { return "n/a" }
        return percent ? String(format: "%.1f%%", 100 * value) : String(format: "%.3f", value)
    }

    static func padded(_ text: String, _ width: Int, left: Bool = false) -> String {
        let pad = String(repeating: " ", count: max(0, width - text.count))
        return left ? text + pad : pad + text
    }

    static func text(_ run: EvaluationRun, titled: Bool) -> String {
        let header =
            padded("device", 30, left: true) + " " + padded("count", 6) + " " + padded("skipped", 7) + " "
            + ["RMSE", "median", "P90", "P95"].map { padded($0, 7) }.joined(separator: " ") + " "
            + padded("honesty", 8) + " " + padded("floor", 7)
        var lines = titled ? [run.label] : []
        lines += [header, String(repeating: "-", count: header.count)]
        let devices = run.evaluation.devices
        var rows = devices.count > 1 || devices.first?.name != "" ? devices.map { ($0.name, $0.metrics) } : []
        rows.append(("overall", run.evaluation.overall))
        for (name, m) in rows {
            lines.append(
                padded(name.isEmpty ? "-" : name, 30, left: true) + " " + padded(String(m.count), 6) + " "
                    + padded(String(m.skipped), 7) + " "
                    + [m.rmse, m.median, m.p90, m.p95].map { padded(cell($0), 7) }.joined(separator: " ") + " "
                    + padded(cell(m.honesty, percent: true), 8) + " " + padded(cell(m.floorHitRate, percent: true), 7))
        }
        let steady = run.evaluation.steadiness
        if steady.steps > 0 {
            var line =
                "steadiness over \(steady.steps) steps: median step \(cell(steady.medianStep)) m (true \(cell(steady.medianTrueStep)) m)"
            if let ratio = steady.pathRatio { line += String(format: ", drawn path %.2f× the true one", ratio) }
            if let still = steady.stillSpeed {
                line += String(
                    format: ", dot speed %.2f m/s while the truth stands still (%d steps)", still, steady.stillSteps)
            }
            lines.append(line)
        }
        lines.append("errors in metres (horizontal); honesty = share of fixes with error <= accuracy")
        if let zones = run.zones { lines += ZoneReport.text(zones) }
        return lines.joined(separator: "\n") + "\n"
    }

    static func markdown(_ runs: [EvaluationRun]) -> String {
        var lines = [
            "| run | RMSE (m) | median (m) | P90 (m) | honesty | fixes |",
            "| --- | ---: | ---: | ---: | ---: | ---: |"
        ]
        for run in runs {
            let m = run.evaluation.overall
            let label = run.label.replacingOccurrences(of: "|", with: "\\|")
            guard let rmse = m.rmse, let median = m.median, let p90 = m.p90 else {
                lines.append("| \(label) | n/a | n/a | n/a | n/a | 0 |")
                continue
            }
            let honesty = m.honesty.map { String(format: "%.0f %%", 100 * $0) } ?? "n/a"
            let figures = [rmse, median, p90].map { String(format: "%.2f", $0) }.joined(separator: " | ")
            lines.append("| \(label) | \(figures) | \(honesty) | \(m.count) |")
        }
        let zoned = runs.compactMap { run in run.zones.map { (label: run.label, zones: $0) } }
        if !zoned.isEmpty { lines += [""] + ZoneReport.markdown(zoned) }
        return lines.joined(separator: "\n") + "\n"
    }

    static func json(_ runs: [EvaluationRun]) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data: Data?
        if runs.count == 1 {
            data = try? encoder.encode(RunJSON(label: nil, evaluation: runs[0].evaluation, zones: runs[0].zones))
        } else {
            data = try? encoder.encode([
                "runs": runs.map { RunJSON(label: $0.label, evaluation: $0.evaluation, zones: $0.zones) }
            ])
        }
        // Encoding plain strings and finite numbers cannot fail.
        return String(decoding: data ?? Data(), as: UTF8.self) + "\n"
    }

    private struct RunJSON: Encodable {
        let label: String?
        let evaluation: TrackScore
        let zones: ZoneScore?

        enum Keys: String, CodingKey { case label, devices, overall, zones }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encodeIfPresent(label, forKey: .label)
            var devices: [String: MetricsJSON] = [:]
            for device in evaluation.devices {
                devices[device.name] = MetricsJSON(metrics: device.metrics, steadiness: device.steadiness)
            }
            try container.encode(devices, forKey: .devices)
            try container.encode(
                MetricsJSON(metrics: evaluation.overall, steadiness: evaluation.steadiness), forKey: .overall)
            if let zones { try container.encode(ZoneReport.JSON(score: zones), forKey: .zones) }
        }
    }

    private struct MetricsJSON: Encodable {
        let metrics: EvaluationMetrics
        let steadiness: Steadiness

        enum Keys: String, CodingKey {
            case count, skipped, rmse, median, p90, p95, honesty, floorHitRate
            case steps, pathRatio, medianStep, medianTrueStep, stillSpeed, stillSteps
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(metrics.count, forKey: .count)
            try c.encode(metrics.skipped, forKey: .skipped)
            try c.encode(steadiness.steps, forKey: .steps)
            try c.encode(steadiness.stillSteps, forKey: .stillSteps)
            for (key, value) in [
                (Keys.rmse, metrics.rmse), (.median, metrics.median), (.p90, metrics.p90),
                (.p95, metrics.p95), (.honesty, metrics.honesty), (.floorHitRate, metrics.floorHitRate),
                (.pathRatio, steadiness.pathRatio), (.medianStep, steadiness.medianStep),
                (.medianTrueStep, steadiness.medianTrueStep), (.stillSpeed, steadiness.stillSpeed)
            ] {
                if let value { try c.encode(value, forKey: key) } else { try c.encodeNil(forKey: key) }
            }
        }
    }
}
