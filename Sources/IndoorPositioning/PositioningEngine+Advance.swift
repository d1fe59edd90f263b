extension PositioningEngine {
    /// Moves the engine's clock to `time` (seconds, the samples' clock) without a sample, so that
    /// a live app keeps getting positions when it stops hearing beacons.
    ///
    /// For every device, each epoch that ends at or before `time − reorderDelay` is closed, as
    /// a sample at `time` would close it. An epoch with samples gives its usual report; an
    /// epoch without (or with none usable) gives the tracker's prediction at the epoch's end:
    /// ``PositionReport/Source/predicted``, no beacons, the velocity carried on, and a
    /// covariance that grows with the time since the last update (position variance ∝ q dt³/3
    /// for constant velocity, see Docs/Reference/Tracking.md). Predictions stop after the first one that
    /// reaches `TrackerConfiguration/maximumPositionVariance` (the track coasts no further),
    /// whether that epoch was closed by this call or an earlier one; they resume with the next
    /// sample. Advancing one epoch at a time or far in one call gives the same reports. Nothing is predicted for a device without a track
    /// (raw fixes, ``TrackingMode/none``, or before its first determined fix).
    ///
    /// Advancing never changes later tracked reports: a prediction is read from a copy of the
    /// tracker. A sample pushed afterwards whose epoch was closed is counted
    /// ``Statistics/late``, like any sample behind the clock. A `time` that is not finite, or
    /// not past an open epoch, does nothing.
    ///
    /// Call it from a timer (for example once per epoch with the current time on the samples'
    /// clock) between pushes:
    /// ```swift
    /// engine.advance(to: now)
    /// for report in engine.pull() { show(report) }   // report.isPredicted when coasting
    /// ```
    public mutating func advance(to time: Double) {
        let before = ready.count
        for device in devices.asleep(heardBefore: .infinity) { wake(device) }
        for index in devices.allInNameOrder() {
            devices.advance(index, to: time, context: &context, into: &ready)
        }
        context.statistics.reports += ready.count - before
    }
}
