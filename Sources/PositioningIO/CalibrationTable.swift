import Foundation

/// The per-beacon table that `calibrate --from-traffic`, `locate --self-calibrate` and
/// `describe --calibration` print: for every plan beacon, the plan's value → the calibration's
/// value ± its standard error (P₀ in dBm, n), σ (dB), the samples used, and where the value
/// comes from (`traffic`, `plan`: kept at the plan's values, or the fitting method of a survey).
public struct CalibrationTable: Sendable {
    /// The plan whose beacons are listed.
    public var plan: FloorPlan
    /// The calibration shown against it.
    public var calibration: CalibrationFile

    /// A table of `calibration` against `plan`.
    public init(plan: FloorPlan, calibration: CalibrationFile) {
        self.plan = plan
        self.calibration = calibration
    }

    /// The table as text, one line per beacon after a header, ending in a newline.
    public var text: String {
        let fits = Dictionary((calibration.beacons ?? []).map { ($0.beacon, $0.fit) }, uniquingKeysWith: { a, _ in a })
        var text =
            "beacon".padding(toLength: 44, withPad: " ", startingAt: 0)
            + "  P0 plan → learned ± se (dBm)   n plan → learned ± se       σ dB  samples  source\n"
        for floor in plan.floors {
            for beacon in floor.beacons {
                guard let resolved = plan.resolvedBeacon(beacon.identity) else { continue }
                let name = beacon.identity.description.padding(toLength: 44, withPad: " ", startingAt: 0)
                guard let fit = fits[beacon.identity] else {
                    text += name + String(format: "  %6.1f (no entry)", resolved.measuredPower) + "\n"
                    continue
                }
                let p0 = String(
                    format: "%6.1f → %6.2f ± %4.2f", resolved.measuredPower, fit.measuredPower,
                    fit.measuredPowerStandardError ?? .nan)
                let n = String(
                    format: "%5.2f → %5.3f ± %5.3f", resolved.pathLossExponent, fit.pathLossExponent,
                    fit.pathLossExponentStandardError ?? .nan)
                let rest = String(format: "%5.2f  %7d", fit.sigma, fit.count)
                text += "\(name)  \(p0)        \(n)   \(rest)  \(fit.method ?? "-")\n"
            }
        }
        return text
    }
}
