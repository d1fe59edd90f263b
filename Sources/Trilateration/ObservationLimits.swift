import BeaconModel

extension TrilaterationSolver {
    /// The largest beacon coordinate magnitude the solver accepts, metres (1000 km: any site in
    /// a local metric frame; the same as `FloorPlan.coordinateLimit`). Beyond it squared
    /// distances lose the precision a fix needs.
    public static let coordinateLimit = FloorPlan.coordinateLimit
    /// Mean RSSI values the solver accepts, dBm (radios report about −130…0).
    public static let rssiRange: ClosedRange<Double> = -200...0
    /// Measured power P₀ (RSSI at 1 m) the solver accepts, dBm. Floor plans allow −120…0 dBm;
    /// this bound and the two below only keep the arithmetic finite.
    public static let measuredPowerRange: ClosedRange<Double> = -200...50
    /// Path-loss exponents n the solver accepts.
    public static let exponentRange: ClosedRange<Double> = 0.1...20
    /// Shadowing standard deviations σ the solver accepts, dB.
    public static let sigmaRange: ClosedRange<Double> = 0.01...100
}
