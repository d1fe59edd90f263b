// Drawing a report's uncertainty: the error ellipse as a polygon in plan metres, scaled to a
// confidence level, ready to be mapped to screen points.
import Foundation
import IndoorPositioning

enum EllipseDrawing {
    /// The boundary of the `confidence` region (for example 0.95) of `report`'s horizontal
    /// position, as `count` points in plan metres. The 1-σ ellipse is scaled by
    /// k = √(−2 ln(1 − confidence)), the χ² quantile with two degrees of freedom (k = 2.45 at 95 %).
    static func outline(of report: PositionReport, confidence: Double = 0.95, count: Int = 36) -> [Point2D] {
        let e = report.ellipse
        let k = (-2 * log(1 - confidence)).squareRoot()
        let c = cos(e.orientation), s = sin(e.orientation)
        return (0..<count).map { i in
            let t = 2 * Double.pi * Double(i) / Double(count)
            let u = k * e.semiMajor * cos(t), v = k * e.semiMinor * sin(t)
            return Point2D(x: report.position.x + c * u - s * v, y: report.position.y + s * u + c * v)
        }
    }

    /// An SVG path of the outline, with y flipped (screen y grows downwards), 20 px per metre.
    static func svgPath(_ points: [Point2D], height: Double = 12, scale: Double = 20) -> String {
        let commands = points.enumerated().map { i, p in
            String(format: "%@%.1f,%.1f", i == 0 ? "M" : "L", p.x * scale, (height - p.y) * scale)
        }
        return commands.joined(separator: " ") + " Z"
    }
}
