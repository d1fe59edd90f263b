import BeaconModel

extension TrackingError {
    /// Throws ``outOfRange(field:value:limit:)`` unless |`value`| ≤ `FloorPlan.coordinateLimit` (metres).
    @inline(__always)
    static func checkCoordinate(_ value: Double, _ field: @autoclosure () -> String) throws(TrackingError) {
        guard abs(value) <= FloorPlan.coordinateLimit else {
            throw .outOfRange(field: field(), value: value, limit: FloorPlan.coordinateLimit)
        }
    }

    /// Throws ``outOfRange(field:value:limit:)`` unless |`value`| ≤ ``TrackerConfiguration/timeLimit`` (seconds).
    @inline(__always)
    static func checkTime(_ value: Double, _ field: @autoclosure () -> String) throws(TrackingError) {
        guard abs(value) <= TrackerConfiguration.timeLimit else {
            throw .outOfRange(field: field(), value: value, limit: TrackerConfiguration.timeLimit)
        }
    }
}
