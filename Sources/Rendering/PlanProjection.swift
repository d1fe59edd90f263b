import PositioningIO

/// Maps plan metres (x east, y north) to picture pixels (x right, y down) at a fixed scale.
public struct PlanProjection: Sendable, Hashable {
    /// The plan rectangle shown, metres.
    public let minX: Double, minY: Double, maxX: Double, maxY: Double
    /// Pixels per metre.
    public let scale: Double
    /// Pixel position of the rectangle's top-left corner (minX, maxY).
    public let left: Double, top: Double

    /// A projection of the rectangle [minX, maxX] × [minY, maxY] (metres) that fits `width` ×
    /// `height` pixels with its top-left corner at (left, top), keeping the aspect ratio.
    public init(
        minX: Double, minY: Double, maxX: Double, maxY: Double, width: Double, height: Double,
        left: Double, top: Double
    ) {
        self.minX = minX
        self.minY = minY
        self.maxX = maxX
        self.maxY = maxY
        let spanX = max(maxX - minX, 1e-6), spanY = max(maxY - minY, 1e-6)
        scale = min(width / spanX, height / spanY)
        self.left = left
        self.top = top
    }

    /// Width of the shown rectangle, pixels.
    public var pixelWidth: Double { (maxX - minX) * scale }
    /// Height of the shown rectangle, pixels.
    public var pixelHeight: Double { (maxY - minY) * scale }

    /// The pixel of the plan point (x, y) metres.
    public func pixel(_ x: Double, _ y: Double) -> (Double, Double) {
        (left + (x - minX) * scale, top + (maxY - y) * scale)
    }

    /// The pixel of a plan point.
    public func pixel(_ point: Point2D) -> (Double, Double) { pixel(point.x, point.y) }
}
