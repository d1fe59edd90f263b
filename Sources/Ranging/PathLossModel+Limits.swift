extension PathLossModel {
    /// Measured power P₀ (RSSI at 1 m) that the solver and the tracker accept, dBm. Floor plans
    /// allow −120…0 dBm; this bound and the two below only keep the arithmetic finite.
    public static let measuredPowerRange: ClosedRange<Double> = -200...50
    /// Path-loss exponents n that the solver and the tracker accept.
    public static let exponentRange: ClosedRange<Double> = 0.1...20
    /// Shadowing standard deviations σ that the solver and the tracker accept, dB.
    public static let sigmaRange: ClosedRange<Double> = 0.01...100
}
