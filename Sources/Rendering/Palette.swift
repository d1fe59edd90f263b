/// Colours of the pictures: distinct, colour-blind-safe hues for devices and runs (Okabe and
/// Ito, "Color Universal Design", 2008), and fixed colours for the plan.
public enum Palette {
    /// Series colours, in order; wraps around after eight.
    public static let series = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442"]

    /// The colour of series `index` (wrapping).
    public static func series(_ index: Int) -> String { series[index % series.count] }

    /// The true track.
    public static let truth = "#222222"
    /// Beacons.
    public static let beacon = "#6A3D9A"
    /// The floor outline.
    public static let outline = "#444444"
    /// Zone fill and stroke.
    public static let zone = "#8FB3D9"
    /// Region circles and events.
    public static let region = "#B8860B"
}
