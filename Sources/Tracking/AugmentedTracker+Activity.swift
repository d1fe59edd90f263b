extension AugmentedTracker {
    /// Takes an activity hint from the phone's own activity recognition for the interval up to
    /// the next epoch: the next prediction weighs its Markov-predicted mode probabilities with
    /// ``ActivityHint/likelihood`` (Bayes' rule) and mixes the modes' motion models with the
    /// result, so a phone that says it is stationary gets the standing model for that interval.
    /// A later hint before the same prediction replaces this one. The state is not changed.
    /// Without motion modes (``TrackerConfiguration/motionModes`` nil) the hint is ignored.
    public mutating func observe(_ hint: ActivityHint) {
        guard configuration.motionModes != nil else { return }
        pendingActivity = hint
    }
}
