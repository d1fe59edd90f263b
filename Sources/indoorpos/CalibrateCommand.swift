import ArgumentParser
import Foundation
import PositioningIO

/// `indoorpos calibrate`: fits the log-distance path-loss model to calibration samples and
/// writes the calibration JSON of FORMATS.md, with a per-beacon summary on standard error.
struct CalibrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calibrate",
        abstract:
            "Fit measured power (P0, dBm at 1 m), path-loss exponent n and shadowing sigma to RSSI samples at known distances.",
        discussion: """
            Reads a CSV with columns distance (metres) and rssi (dBm), optionally uuid,major,minor to \
            fit each beacon separately as well as all samples together. Writes the calibration JSON \
            (for 'locate --calibration') to standard output or --output, and a summary with standard \
            errors to standard error.

            With --from-traffic it needs no distances: it learns every beacon's model from the \
            unlabeled RSSI samples of --rssi (the same CSV 'locate' reads) and the beacon positions \
            of --plan, by locating the traffic, refitting the models to the smoothed positions and \
            repeating until they settle (Docs/Guide/Calibration.md). --calibration gives a survey to start \
            from; otherwise the plan's values are the starting point.
            """
    )

    enum Method: String, ExpressibleByArgument, CaseIterable {
        case leastSquares = "least-squares", huber, bisquare, trimmed
    }

    @Option(name: .long, help: "Calibration samples CSV (distance,rssi[,uuid,major,minor]).")
    var samples: String?

    @Flag(name: .long, help: "Learn from unlabeled traffic (--plan and --rssi) instead of samples at known distances.")
    var fromTraffic = false

    @Option(name: .long, help: "With --from-traffic: the floor plan JSON (beacon positions, starting values).")
    var plan: String?

    @Option(name: .long, help: "With --from-traffic: the RSSI samples CSV to learn from (as 'locate' reads).")
    var rssi: String?

    @Option(name: .long, help: "With --from-traffic: a calibration JSON to start from (its values centre the priors).")
    var calibration: String?

    @Flag(name: .long, help: "With --from-traffic: list every device's learned offset, however many.")
    var verbose = false

    @Flag(name: .long, help: "With --from-traffic: skip malformed RSSI rows instead of stopping at the first.")
    var skipBadRows = false

    @Option(
        name: .long, parsing: .unconditional,
        help: "With --from-traffic: at most this many rounds of locating and refitting (default 8).")
    var rounds: Int = 8

    @Option(
        name: .long, parsing: .unconditional,
        help:
            "With --from-traffic: stop once no learned value moves by more than this many standard errors in a round (default 0.5; 0: only the score and --rounds stop it).",
        transform: NumberArgument.parse)
    var tolerance: Double = 0.5

    @Flag(name: .long, help: "Fit robustly (bisquare M-estimator), so that gross outliers do not bias the fit.")
    var robust = false

    @Option(name: .long, help: "Fitting method: least-squares, huber, bisquare or trimmed (overrides --robust).")
    var method: Method?

    @Option(
        name: .long, parsing: .unconditional, help: "Share of samples a trimmed fit leaves out, 0 to 0.5.",
        transform: NumberArgument.parse)
    var trimFraction: Double = 0.1

    @Option(
        name: .long, parsing: .unconditional,
        help:
            "Hold the path-loss exponent at this value and fit only the measured power and sigma (samples at a single distance then suffice, e.g. a few static points).",
        transform: NumberArgument.parse)
    var exponent: Double?

    @Option(
        name: .long, parsing: .unconditional,
        help: "Skip samples closer than this many metres (the near field; rows at distance 0).",
        transform: NumberArgument.parse)
    var minDistance: Double?

    @Option(name: .long, help: "Write the calibration JSON here instead of standard output.")
    var output: String?

    func validate() throws {
        if fromTraffic {
            guard plan != nil, rssi != nil else {
                throw ValidationError("--from-traffic needs --plan and --rssi")
            }
            guard samples == nil else {
                throw ValidationError(
                    "--from-traffic learns from --rssi; --samples (known distances) cannot be combined with it")
            }
            guard (1...100).contains(rounds) else { throw ValidationError("--rounds must be 1 to 100, got \(rounds)") }
            guard tolerance.isFinite, tolerance >= 0 else {
                throw ValidationError("--tolerance must be a number of standard errors, 0 or more, got \(tolerance)")
            }
        } else {
            guard samples != nil else {
                throw ValidationError(
                    "give --samples (RSSI at known distances), or --from-traffic with --plan and --rssi")
            }
            for (name, value) in [("--plan", plan), ("--rssi", rssi), ("--calibration", calibration)] where value != nil
            {
                throw ValidationError("\(name) goes with --from-traffic")
            }
        }
    }

    func run() throws {
        try ToolErrors.run {
            if fromTraffic, let plan, let rssi {
                let destination = try OutputFile(
                    path: output, notOverwriting: [plan, rssi] + (calibration.map { [$0] } ?? []))
                // A piped input is copied first: learning reads it once per round.
                let input = try SpooledInput(path: rssi)
                defer { withExtendedLifetime(input) {} }
                let learned = try SelfCalibration(
                    plan: FloorPlan.load(path: plan), rssi: input.path, skipBadRows: skipBadRows,
                    start: calibration.map(CalibrationFile.load(path:)),
                    settings: TrafficCalibration.Settings(maximumRounds: rounds, tolerance: tolerance))
                destination.write(learned.file.jsonData())
                try destination.commit()
                FileHandle.standardError.write(Data(learned.summary(verbose: verbose).utf8))
                return
            }
            guard let samples else { return }
            let chosen = method ?? (robust ? .bisquare : .leastSquares)
            let fitMethod: CalibrationMethod
            switch chosen {
            case .leastSquares: fitMethod = .leastSquares
            case .huber: fitMethod = .huber
            case .bisquare: fitMethod = .robust
            case .trimmed: fitMethod = .trimmed(fraction: trimFraction)
            }
            if let exponent, !(exponent.isFinite && CalibrationResult.plausibleExponent.contains(exponent)) {
                throw ValidationError("--exponent must be a path-loss exponent between 0.1 and 10, got \(exponent)")
            }
            if let minDistance, !(minDistance.isFinite && minDistance >= 0) {
                throw ValidationError("--min-distance must be a non-negative number of metres, got \(minDistance)")
            }
            let read = try CalibrationSamples.read(path: samples, minimumDistance: minDistance)
            let report: CalibrationReport
            do {
                report = try PathLossCalibration(method: fitMethod, fixedExponent: exponent).fitPerBeacon(read.samples)
            } catch CalibrationError.tooFewDistances where exponent == nil {
                throw ValidationError(
                    "\(samples): every sample is at one distinct distance, so the exponent cannot be fitted; "
                        + "give --exponent N (for example 2) to hold it and fit the measured power and sigma")
            }
            let namesBeacons = read.samples.contains { $0.beacon != nil }
            let file = CalibrationFile(report: report, samplesNameBeacons: namesBeacons)
            let destination = try OutputFile(path: output, notOverwriting: [samples])
            destination.write(file.jsonData())
            try destination.commit()
            FileHandle.standardError.write(Data(summary(report, read: read, method: fitMethod).utf8))
        }
    }

    /// The human-readable table on standard error.
    func summary(_ report: CalibrationReport, read: CalibrationSamples, method: CalibrationMethod) -> String {
        func row(_ name: String, _ r: CalibrationResult) -> String {
            let p0 = String(format: "%7.2f ± %4.2f", r.model.measuredPower, r.measuredPowerStandardError)
            let n = String(format: "%5.3f ± %5.3f", r.model.exponent, r.exponentStandardError)
            let rest = String(
                format: "%5.2f %6d %6d  %5.2f–%5.2f", r.model.sigma, r.count, r.inlierCount,
                r.distanceSpan.lowerBound, r.distanceSpan.upperBound)
            return name.padding(toLength: 44, withPad: " ", startingAt: 0) + " \(p0)  \(n)  \(rest)\n"
        }
        var text = "calibrate: \(method), \(read.samples.count) samples"
        if read.skippedNoReading > 0 { text += ", \(read.skippedNoReading) 'no reading' rows skipped" }
        if read.skippedTooClose > 0 {
            text += ", \(read.skippedTooClose) rows closer than the minimum distance skipped"
        }
        text += "\n"
        text +=
            "beacon".padding(toLength: 44, withPad: " ", startingAt: 0)
            + "  P0 dBm ± se    n ± se           σ dB  count inliers  distance m\n"
        for beacon in report.beacons { text += row(beacon.beacon.description, beacon.result) }
        text += row("all", report.all)
        for failure in report.failures {
            text += "not fitted on its own: \(failure); the overall fit is written for it (\"method\": \"global\")\n"
        }
        return text
    }
}
