import BeaconModel

extension TrackerBank {
    /// The mixture estimate predicted to `time` (seconds) without changing the bank: every
    /// member is predicted on a copy (see ``AugmentedTracker/predict(to:)``) and the predictions
    /// are mixed with the current weights, as ``estimate`` mixes the current states.
    /// - Throws: `nonFiniteInput` for NaN/∞, `timestampBeforeState` for a time before the state.
    public func estimate(at time: Double) throws(TrackingError) -> TrackEstimate {
        var predicted: [TrackEstimate] = []
        predicted.reserveCapacity(members.count)
        for member in members {
            var copy = member
            try copy.predict(to: time)
            predicted.append(copy.estimate)
        }
        guard predicted.count > 1 else { return predicted[0] }
        return .mixture(count: predicted.count, weight: { weights[$0] }, { predicted[$0] })
    }

    /// The position variance per axis at which the members stop coasting, m² (see
    /// ``TrackerConfiguration/maximumPositionVariance``).
    public var maximumPositionVariance: Double { members[0].configuration.maximumPositionVariance }
}
