extension AugmentedTracker {
    /// Weighs the motion-mode probabilities with an activity hint from the phone's own activity
    /// recognition (Bayes' rule with ``ActivityHint/likelihood``). The state is not changed; the
    /// next prediction mixes the modes with the new probabilities. Without motion modes
    /// (``TrackerConfiguration/motionModes`` nil) the hint is ignored.
    public mutating func observe(_ hint: ActivityHint) {
        guard configuration.motionModes != nil else { return }
        modeProbabilities = modeProbabilities.weighted(by: hint.likelihood)
    }
}
