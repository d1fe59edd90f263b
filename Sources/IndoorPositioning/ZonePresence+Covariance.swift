import BeaconModel
import LinearAlgebra
import Monitoring

extension ZonePresence {
    /// Sets `report`'s zone (nil: in no zone) and its probability from the report's time
    /// (seconds), covariance (m²) and `position` (metres: its own, or the estimate's before
    /// it was put on the floor) on `floor`: the engine's zone rule for every report. A floor
    /// without zones leaves both nil. `adjacency` is the floor's, built once by the engine.
    mutating func decide(
        _ report: inout PositionReport, position: Point2D, floor: Floor, adjacency: ZoneAdjacency?
    ) {
        guard !floor.zones.isEmpty else {
            report.zone = nil
            report.zoneProbability = nil
            return
        }
        let c = report.covariance
        let decision = update(
            time: report.timestamp, position: position, xx: c.xx, xy: c.xy, yy: c.yy, floor: floor,
            adjacency: adjacency)
        report.zone = decision.zone
        report.zoneProbability = decision.probability
    }
}
