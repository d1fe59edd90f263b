import IndoorPositioning

extension PositioningEngine.Configuration {
    /// Turns on the tracker's motion modes (with their defaults) for an RSSI file that carries
    /// the phone's activity, which is evidence for them only (`ActivityHint`), when Kalman
    /// tracking runs without modes. Returns whether it turned them on.
    public mutating func enableMotionModes(forActivityColumn fileHasActivity: Bool) -> Bool {
        guard fileHasActivity, tracking == .kalman, tracker.motionModes == nil else { return false }
        tracker.motionModes = MotionModes()
        return true
    }
}
