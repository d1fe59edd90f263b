import Evaluation
import Foundation

/// The empirical cumulative distribution of horizontal errors as an SVG chart: for each run the
/// share of fixes (0–100 %) whose error is at most x metres, a step line per run, with the
/// median and 90th percentile in the legend.
public enum ErrorCDFChart {
    /// An SVG document of the runs' error CDFs (runs without scored fixes are listed in the
    /// legend as "no fixes").
    public static func svg(_ runs: [EvaluationRun], title: String = "Horizontal error, cumulative") -> String {
        let width = 640.0, height = 400.0
        let left = 56.0, right = 20.0, top = 36.0, bottom = 48.0
        let plotW = width - left - right, plotH = height - top - bottom
        let largest = runs.compactMap { $0.evaluation.overall.errors.last(where: \.isFinite) }.max() ?? 1
        let xMax = niceCeiling(max(largest, 0.5))
        let step = niceStep(xMax / 6)
        func px(_ x: Double) -> Double { left + plotW * min(x, xMax) / xMax }
        func py(_ share: Double) -> Double { top + plotH * (1 - share) }

        var svg = SVGDocument(width: width, height: height)
        svg.rect(0, 0, width, height, [("fill", "white")])
        svg.text(left, 22, title, [("font-size", "15"), ("font-weight", "bold")])
        // Grid and axes.
        for index in 0...min(Int((xMax / step + 1e-9).rounded(.down)), 20) {
            let tick = Double(index) * step
            svg.line(px(tick), top, px(tick), top + plotH, [("stroke", "#e0e0e0")])
            svg.text(px(tick), top + plotH + 16, SVGDocument.number(tick), [("text-anchor", "middle")])
        }
        for percent in stride(from: 0, through: 100, by: 20) {
            let y = py(Double(percent) / 100)
            svg.line(left, y, left + plotW, y, [("stroke", "#e0e0e0")])
            svg.text(left - 6, y + 4, "\(percent) %", [("text-anchor", "end")])
        }
        svg.rect(left, top, plotW, plotH, [("fill", "none"), ("stroke", "#888")])
        svg.text(left + plotW / 2, height - 10, "error (m)", [("text-anchor", "middle")])
        svg.text(
            14, top + plotH / 2, "share of fixes",
            [
                ("text-anchor", "middle"),
                ("transform", "rotate(-90 14 \(SVGDocument.number(top + plotH / 2)))")
            ])
        // One step line per run.
        for (index, run) in runs.enumerated() {
            let errors = run.evaluation.overall.errors
            guard !errors.isEmpty else { continue }
            var points: [(Double, Double)] = [(px(0), py(0))]
            let n = Double(errors.count)
            for (i, error) in errors.enumerated() {
                // A step up at each error; steps closer than a quarter pixel are merged.
                let x = px(error)
                if let last = points.last, abs(last.0 - x) < 0.25 {
                    points[points.count - 1].1 = py(Double(i + 1) / n)
                    continue
                }
                points.append((x, py(Double(i) / n)))
                points.append((x, py(Double(i + 1) / n)))
            }
            points.append((px(xMax), py(1)))
            svg.path(
                points, closed: false, [("fill", "none"), ("stroke", Palette.series(index)), ("stroke-width", "2")])
        }
        // Legend, bottom right inside the plot.
        let rowHeight = 18.0
        let labels = runs.map { run -> String in
            let m = run.evaluation.overall
            let figures =
                m.median.map { median in
                    String(format: "median %.2f m, P90 %.2f m, %d fixes", median, m.p90 ?? 0, m.count)
                } ?? "no fixes"
            return "\(run.label): \(figures)"
        }
        // About 6.2 pixels per character at 12 px Helvetica.
        let legendWidth = min(plotW - 16, 40 + 6.2 * Double(labels.map(\.count).max() ?? 0))
        let legendTop = top + plotH - 10 - rowHeight * Double(runs.count)
        let legendLeft = left + plotW - 8 - legendWidth
        svg.rect(
            legendLeft - 8, legendTop - 14, legendWidth + 8, rowHeight * Double(runs.count) + 8,
            [("fill", "white"), ("fill-opacity", "0.85"), ("stroke", "#ccc")])
        for (index, label) in labels.enumerated() {
            let y = legendTop + rowHeight * Double(index)
            svg.line(
                legendLeft, y - 4, legendLeft + 22, y - 4, [("stroke", Palette.series(index)), ("stroke-width", "3")])
            svg.text(legendLeft + 28, y, label)
        }
        return svg.document
    }

    /// The smallest of 1, 2, 2.5, 5 × 10^k at or above `value` (> 0).
    static func niceCeiling(_ value: Double) -> Double {
        let magnitude = pow(10, floor(log10(value)))
        for factor in [1.0, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10] where factor * magnitude >= value - 1e-12 {
            return factor * magnitude
        }
        return 10 * magnitude
    }

    /// A tick step of 1, 2 or 5 × 10^k near `value` (> 0).
    static func niceStep(_ value: Double) -> Double {
        let magnitude = pow(10, floor(log10(value)))
        for factor in [1.0, 2, 5, 10] where factor * magnitude >= value - 1e-12 { return factor * magnitude }
        return 10 * magnitude
    }
}
