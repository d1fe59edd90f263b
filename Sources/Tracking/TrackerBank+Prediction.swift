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
        var e = predicted[0]
        guard predicted.count > 1 else { return e }
        func mix(_ value: (TrackEstimate) -> Double) -> Double {
            var sum = 0.0
            for k in predicted.indices { sum += weights[k] * value(predicted[k]) }
            return sum
        }
        let x = mix { $0.position.x }, y = mix { $0.position.y }
        e.position = Point2D(x: x, y: y)
        e.velocity = Point2D(x: mix { $0.velocity.x }, y: mix { $0.velocity.y })
        e.covarianceXX = mix { $0.covarianceXX + ($0.position.x - x) * ($0.position.x - x) }
        e.covarianceXY = mix { $0.covarianceXY + ($0.position.x - x) * ($0.position.y - y) }
        e.covarianceYY = mix { $0.covarianceYY + ($0.position.y - y) * ($0.position.y - y) }
        return e
    }

    /// The position variance per axis at which the members stop coasting, m² (see
    /// ``TrackerConfiguration/maximumPositionVariance``).
    public var maximumPositionVariance: Double { members[0].configuration.maximumPositionVariance }
}
