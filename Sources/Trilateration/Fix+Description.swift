import Foundation

extension Fix: CustomStringConvertible {
    /// One line for logs, metres: `converged (3.10, 4.20, 1.82) ±1.20 m level 0, 5 beacons,
    /// 1 rejected`.
    public var description: String {
        var text =
            "\(status) "
            + String(
                format: "(%.2f, %.2f, %.2f) ±%.2f m level %d, %d beacons",
                position.x, position.y, position.z, accuracy, level, usedBeacons.count)
        if !rejectedBeacons.isEmpty { text += ", \(rejectedBeacons.count) rejected" }
        if constrainedToOutline { text += ", on the outline" }
        return text
    }
}
