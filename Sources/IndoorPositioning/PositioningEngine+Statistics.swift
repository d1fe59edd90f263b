extension PositioningEngine.Statistics {
    /// Adds the counts of another engine (a worker of a sharded run) to these.
    mutating func add(_ other: Self) {
        accepted += other.accepted
        unknownBeacon += other.unknownBeacon
        invalidRSSI += other.invalidRSSI
        invalidTime += other.invalidTime
        late += other.late
        reports += other.reports
        fallbackReports += other.fallbackReports
        trackRestarts += other.trackRestarts
        releasedDevices += other.releasedDevices
        activityHints += other.activityHints
        epochsWithoutFix += other.epochsWithoutFix
        epochsRefused += other.epochsRefused
        learnedModelUpdates += other.learnedModelUpdates
        fitChiSquare += other.fitChiSquare
        fitDegreesOfFreedom += other.fitDegreesOfFreedom
        if !other.detections.isEmpty { detections.add(other.detections) }
    }
}
