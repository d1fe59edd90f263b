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
        addChiSquareUnits(other.fitChiSquareUnits)
        fitDegreesOfFreedom += other.fitDegreesOfFreedom
        if !other.detections.isEmpty { detections.add(other.detections) }
    }
}

extension PositioningEngine.Statistics {
    /// Adds one determined fix's χ² (finite, non-negative) to ``fitChiSquare``, rounded to its unit.
    mutating func addChiSquare(_ chiSquare: Double) {
        addChiSquareUnits(Int64((min(chiSquare, 1e12) * Self.chiSquareUnit).rounded()))
    }

    /// Adds `units` (non-negative) to ``fitChiSquareUnits``, saturating at `Int64.max`: for
    /// non-negative terms the result is min(total, max) in any order.
    private mutating func addChiSquareUnits(_ units: Int64) {
        let (sum, overflow) = fitChiSquareUnits.addingReportingOverflow(units)
        fitChiSquareUnits = overflow ? .max : sum
    }
}
