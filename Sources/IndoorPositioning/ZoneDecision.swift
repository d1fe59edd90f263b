import BeaconModel
import LinearAlgebra
import Monitoring

/// The zone rule of a device's reports (``ZonePresence``, the posterior estimate), fed the
/// report's position and horizontal covariance.
struct ZoneDecision: Sendable, Hashable {
    private var presence = ZonePresence()

    /// The zone of a report at `time` (seconds) at `position` (metres) with horizontal
    /// `covariance` (m²) on `floor`; nil: in no zone.
    mutating func update(time: Double, position: Point2D, covariance: PositionCovariance, floor: Floor) -> String? {
        presence.update(
            time: time, position: position, xx: covariance.xx, xy: covariance.xy, yy: covariance.yy, floor: floor
        ).zone
    }
}
