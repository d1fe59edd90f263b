import BeaconModel

extension TrilaterationSolver {
    /// The largest beacon coordinate magnitude the solver accepts, metres (1000 km: any site in
    /// a local metric frame; the same as ``FloorPlan/coordinateLimit``). Beyond it squared
    /// distances lose the precision a fix needs.
    public static let coordinateLimit = FloorPlan.coordinateLimit
    /// Mean RSSI values the solver accepts, dBm (radios report about −130…0).
    public static let rssiRange: ClosedRange<Double> = -200...0
    /// Path-loss model values the solver accepts: P₀ in dBm, exponent n, shadowing σ in dB
    /// (floor plans allow P₀ −120…0 dBm and n 0.5…6; these bounds only keep the maths finite).
    public static let measuredPowerRange: ClosedRange<Double> = -200...50
    public static let exponentRange: ClosedRange<Double> = 0.1...20
    public static let sigmaRange: ClosedRange<Double> = 0.01...100
}
