import ArgumentParser
import Foundation
import PositioningIO

/// `indoorpos describe --plan P [--calibration C]`: loads a floor plan and prints what it holds.
struct DescribeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "describe", abstract: "Load a floor plan and print what it holds.",
        discussion: """
            Prints the plan's defaults and georeference, then per floor its elevation, outline \
            bounds and area, zones (id, name, area) and beacons (identity, position in metres, \
            measured power and path-loss exponent, and where they come from: the beacon itself, \
            the plan's defaults, or --calibration).
            """)

    @Option(name: .long, help: "Floor plan JSON file.")
    var plan: String

    @Option(name: .long, help: "Calibration JSON from 'indoorpos calibrate': show which beacons it calibrates.")
    var calibration: String?

    func run() throws {
        try ToolErrors.run {
            let loaded = try FloorPlan.load(path: plan)
            let file = try calibration.map(CalibrationFile.load(path:))
            print(PlanDescription(plan: loaded, calibration: file).text, terminator: "")
            if let file {
                print("")
                print("calibration against the plan, per beacon:")
                print(CalibrationTable(plan: loaded, calibration: file).text, terminator: "")
            }
        }
    }
}

/// The text of `describe`.
struct PlanDescription {
    let plan: FloorPlan
    let calibration: CalibrationFile?
    /// The calibration's fits by beacon, looked up once (a plan of many beacons stays linear).
    let fits: [BeaconIdentity: CalibrationFile.Fit]

    init(plan: FloorPlan, calibration: CalibrationFile?) {
        self.plan = plan
        self.calibration = calibration
        fits = calibration?.fitsByBeacon ?? [:]
    }

    static func f(_ value: Double, _ digits: Int = 2) -> String { String(format: "%.\(digits)f", value) }

    var text: String {
        var lines: [String] = []
        let d = plan.defaults
        lines.append(
            "\(plan.name.isEmpty ? "(unnamed plan)" : plan.name): \(plan.floors.count) floor(s), "
                + "\(plan.beaconCount) beacon(s), \(plan.floors.reduce(0) { $0 + $1.zones.count }) zone(s)")
        lines.append(
            "defaults: measured power \(Self.f(d.measuredPower, 1)) dBm at 1 m, path-loss exponent "
                + "\(Self.f(d.pathLossExponent)), receiver height \(Self.f(d.receiverHeight)) m")
        if let g = plan.georeference {
            lines.append(
                "georeference: origin latitude \(Self.f(g.latitude, 6))°, longitude \(Self.f(g.longitude, 6))°, "
                    + "y axis bearing \(Self.f(g.bearing, 1))° (GeoJSON output possible)")
        } else {
            lines.append("georeference: none (GeoJSON output needs one)")
        }
        lines.append(calibrationSummary)
        let warnings = plan.geometryWarnings()
        lines.append(
            warnings.isEmpty
                ? "geometry: no warnings"
                : "geometry: \(warnings.count) warning(s):" + warnings.map { "\n  warning: \($0)" }.joined())
        for floor in plan.floors {
            lines.append("")
            let name = floor.name.map { " \"\($0)\"" } ?? ""
            lines.append("level \(floor.level)\(name): elevation \(Self.f(floor.elevation)) m")
            if let outline = floor.outline {
                let b = Self.bounds(outline.vertices)
                lines.append(
                    "  outline: \(outline.vertices.count) points, \(Self.f(outline.area, 1)) m², "
                        + "x \(Self.f(b.minX))…\(Self.f(b.maxX)) m, y \(Self.f(b.minY))…\(Self.f(b.maxY)) m")
            } else {
                lines.append("  outline: none (positions are not kept inside a floor outline)")
            }
            for zone in floor.zones {
                lines.append(
                    "  zone \(zone.id)\(zone.name.map { " \"\($0)\"" } ?? ""): \(Self.f(zone.polygon.area, 1)) m²")
            }
            if !floor.beacons.isEmpty {
                let b = Self.bounds(floor.beacons.map { Point2D(x: $0.position.x, y: $0.position.y) })
                lines.append(
                    "  beacons: \(floor.beacons.count), x \(Self.f(b.minX))…\(Self.f(b.maxX)) m, "
                        + "y \(Self.f(b.minY))…\(Self.f(b.maxY)) m")
            }
            for beacon in floor.beacons.sorted(by: { $0.identity < $1.identity }) {
                lines.append("    " + describe(beacon))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    var calibrationSummary: String {
        let own = plan.beacons.filter { $0.measuredPower != nil || $0.pathLossExponent != nil }.count
        var text = "calibration: \(own) of \(plan.beaconCount) beacon(s) carry their own values in the plan"
        if let calibration {
            let covered = plan.beacons.filter { fits[$0.identity] != nil }.count
            if let other = calibration.planMismatch(plan) {
                // Every beacon keeps the plan's values (`CalibrationFile.model(for:)`); locate,
                // monitor and calibrate refuse such a file.
                text +=
                    "; warning: the calibration file fits none of them (its \(fits.count) beacon fit(s) are for "
                    + "others, such as \(other)); check that it belongs to this plan: every beacon keeps the plan's "
                    + "values with the file's sigma (\(Self.f(calibration.all.sigma, 1)) dB), and locate refuses it"
            } else if fits.isEmpty || covered == plan.beaconCount {
                text +=
                    "; the calibration file fits \(covered) of them individually, the others take its overall fit "
                    + "(\(Self.f(calibration.all.measuredPower, 1)) dBm, n = \(Self.f(calibration.all.pathLossExponent)), "
                    + "sigma \(Self.f(calibration.all.sigma, 1)) dB)"
            } else {
                // A file with per-beacon fits gives the others the plan's values with its sigma.
                text +=
                    "; the calibration file fits \(covered) of them individually, the others keep the plan's values "
                    + "with its sigma (\(Self.f(calibration.all.sigma, 1)) dB)"
            }
        } else {
            text += "; no calibration file given (--calibration)"
        }
        return text
    }

    func describe(_ beacon: Beacon) -> String {
        let id = beacon.identity
        let position = "(\(Self.f(beacon.position.x)), \(Self.f(beacon.position.y)), \(Self.f(beacon.position.z))) m"
        var power = beacon.measuredPower ?? plan.defaults.measuredPower
        var exponent = beacon.pathLossExponent ?? plan.defaults.pathLossExponent
        var source =
            beacon.measuredPower == nil && beacon.pathLossExponent == nil
            ? "plan defaults"
            : beacon.measuredPower != nil && beacon.pathLossExponent != nil ? "own" : "own and defaults"
        if let calibration, let resolved = plan.resolvedBeacon(id) {
            let model = calibration.model(for: resolved, own: fits[id])
            power = model.measuredPower
            exponent = model.exponent
            let individual = fits[id] != nil
            source =
                individual
                ? "calibrated"
                : calibration.beacons?.isEmpty ?? true
                    ? "calibration file, overall fit" : "plan values, calibration file's sigma"
        }
        return "\(id.uuid.uuidString) \(id.major):\(id.minor) at \(position), "
            + "\(Self.f(power, 1)) dBm, n = \(Self.f(exponent)) (\(source))"
    }

    static func bounds(_ points: [Point2D]) -> (minX: Double, minY: Double, maxX: Double, maxY: Double) {
        (points.map(\.x).min() ?? 0, points.map(\.y).min() ?? 0, points.map(\.x).max() ?? 0, points.map(\.y).max() ?? 0)
    }
}
