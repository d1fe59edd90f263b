/// The detection curve an engine learns from its own traffic as it goes
/// (``PositioningEngine/Configuration/learnsDetection``): the curve its fallbacks use now, and
/// what it was fitted from.
public struct LearnedDetection: Sendable, Hashable {
    /// The curve in use: the last fit that gave one (nil: none yet, and the fallbacks are
    /// weighted centroids).
    public var model: DetectionModel?
    /// Why the last fit gave no curve (nil when it gave one). A curve fitted earlier stays in use.
    public var shortfall: DetectionScans.Shortfall?
    /// Determined fixes recorded when ``model`` was fitted (0 while there is none).
    public var fixes: Int
    /// The a-posteriori variance factor Σχ² / Σdof of the determined fixes when ``model`` was
    /// fitted, at least 1: the fallbacks' readings are taken with σ² times this.
    public var varianceFactor: Double
    /// Fits made so far (``PositioningEngine/Configuration/detectionFitSchedule``).
    public var fits: Int

    /// No fit yet.
    public init() {
        model = nil
        shortfall = nil
        fixes = 0
        varianceFactor = 1
        fits = 0
    }
}
