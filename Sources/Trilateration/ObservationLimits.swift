import BeaconModel
import Ranging

extension TrilaterationSolver {
    /// The largest beacon coordinate magnitude the solver accepts, metres (1000 km: any site in
    /// a local metric frame; the same as `FloorPlan.coordinateLimit`). Beyond it squared
    /// distances lose the precision a fix needs.
    public static let coordinateLimit = FloorPlan.coordinateLimit
    /// Mean RSSI values the solver accepts, dBm (radios report about −130…0).
    public static let rssiRange: ClosedRange<Double> = -200...0
    /// Measured power P₀ (RSSI at 1 m) the solver accepts, dBm (`PathLossModel.measuredPowerRange`).
    public static let measuredPowerRange = PathLossModel.measuredPowerRange
    /// Path-loss exponents n the solver accepts (`PathLossModel.exponentRange`).
    public static let exponentRange = PathLossModel.exponentRange
    /// Shadowing standard deviations σ the solver accepts, dB (`PathLossModel.sigmaRange`).
    public static let sigmaRange = PathLossModel.sigmaRange
}
