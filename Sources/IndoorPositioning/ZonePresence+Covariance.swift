import BeaconModel
import LinearAlgebra
import Monitoring

extension ZonePresence {
    /// The zone of a report at `time` (seconds) at `position` (metres) with horizontal
    /// `covariance` (m²) on `floor`; nil: in no zone. The engine's zone rule for every report.
    mutating func zone(time: Double, position: Point2D, covariance: PositionCovariance, floor: Floor) -> String? {
        update(time: time, position: position, xx: covariance.xx, xy: covariance.xy, yy: covariance.yy, floor: floor)
            .zone
    }
}
