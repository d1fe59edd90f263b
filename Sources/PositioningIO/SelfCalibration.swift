import Foundation
import LinearAlgebra

/// Learning a site's calibration from an RSSI samples file, as `calibrate --from-traffic` and
/// `locate --self-calibrate` do: reads every sample, runs `TrafficCalibration`, and gives the
/// calibration JSON and a summary for people.
public struct SelfCalibration: Sendable {
    /// The learned calibration, in the JSON form `locate --calibration` reads.
    public var file: CalibrationFile
    /// What the learning did, round by round.
    public var result: TrafficCalibration.Result
    /// What reading the samples counted.
    public var counts: RSSISampleReader.Counts
    /// The plan learned for.
    public var plan: FloorPlan
    /// Whether a starting calibration was given but named none of the plan's beacons (so the
    /// plan's values were the start).
    public var startedFromPlanOnly = false
    /// Samples read that nothing was learned from: of beacons not in the plan, and with an
    /// implausible RSSI (positive, or below −130 dBm).
    public var unknownBeaconSamples = 0
    public var implausibleSamples = 0

    /// Learns from the RSSI samples CSV at `rssi`.
    /// - Parameters:
    ///   - plan: the floor plan whose beacons are learned.
    ///   - rssi: the path of the RSSI samples CSV (as `locate` reads it).
    ///   - skipBadRows: skip malformed rows (counted) instead of stopping at the first.
    ///   - start: a calibration to start from and centre the priors on (a survey), or nil for
    ///     the plan's values.
    ///   - configuration: the engine settings the traffic is located with.
    ///   - settings: how the rounds run and stop (`TrafficCalibration.Settings`).
    /// - Throws: `FileError` for an unreadable or malformed file, `PositioningError` when
    ///   nothing could be learned.
    public init(
        plan: FloorPlan, rssi: String, skipBadRows: Bool = false, start: CalibrationFile? = nil,
        configuration: PositioningEngine.Configuration = .init(),
        settings: TrafficCalibration.Settings = .init()
    ) throws {
        let reader = try RSSISampleReader(path: rssi, skipBadRows: skipBadRows)
        var samples: [RSSISample] = []
        while let sample = try reader.next() { samples.append(sample) }
        // Start from the calibration's own fits of plan beacons (or its overall fit, for a file
        // of anonymous samples); a file of another site names none of them and changes nothing.
        var initial: [BeaconIdentity: PathLossModel] = [:]
        if let start {
            let named = Set((start.beacons ?? []).map(\.beacon))
            initial = start.models(for: plan).filter { named.isEmpty || named.contains($0.key) }
        }
        startedFromPlanOnly = start != nil && initial.isEmpty
        result = try TrafficCalibration.learn(
            samples, plan: plan, calibration: initial,
            configuration: configuration, settings: settings)
        file = CalibrationFile(
            learned: result.estimates, pooled: result.pooled, placeShadowingVariance: result.placeShadowingVariance,
            deviceOffsetSigma: result.deviceOffsetSpread?.sigma, wallAttenuation: result.wallAttenuation)
        counts = reader.counts
        self.plan = plan
        let known = Set(plan.beacons.map(\.identity))
        for sample in samples {
            if !known.contains(sample.identity) {
                unknownBeaconSamples += 1
            } else if RSSIReading.rejection(of: sample.rssi) != nil {
                implausibleSamples += 1
            }
        }
    }

    /// What reading skipped, as `locate` says it; empty when nothing was.
    public var skipped: [String] {
        BatchResult.skipped(counts: counts, invalidRSSI: implausibleSamples, unknownBeacon: unknownBeaconSamples)
    }

    /// The models for the engine, read back from ``file`` (rounded as written), so that locating
    /// with them gives what `locate --calibration` gives with the written file.
    public var models: [BeaconIdentity: PathLossModel] { file.models(for: plan) }

    /// How uncertain ``models`` are, from ``file`` as written, for
    /// `PositioningEngine.Configuration.modelUncertainty` (see
    /// ``CalibrationFile/uncertainties(for:)``).
    public var uncertainties: [BeaconIdentity: PathLossUncertainty] { file.uncertainties(for: plan) }

    /// The device-offset prior the traffic's devices support (`DeviceOffsetSpread/sigma`, 0.1 to
    /// 10 dB), rounded to 0.01 dB as ``summary(verbose:)`` prints it and as ``file`` holds it
    /// (`deviceOffsetSigma`), so that `locate --calibration FILE` repeats `locate
    /// --self-calibrate`; nil with fewer than two devices heard, or when the starting models were
    /// kept.
    public var deviceOffsetSigma: Double? { file.deviceOffsetSigma }

    /// The rounds and the per-beacon table, for standard error, with the device offsets
    /// summarised (count, median, extremes) when there are more than
    /// ``listedDeviceOffsets`` devices.
    public var summary: String { summary(verbose: false) }

    /// Devices whose offsets the summary lists one by one; beyond this it gives a summary
    /// unless `verbose`.
    public static let listedDeviceOffsets = 12

    /// The summary; `verbose` lists every device's offset whatever their number.
    public func summary(verbose: Bool) -> String {
        let learned = result.estimates.filter { $0.source == .traffic }.count
        var text = "self-calibration: \(counts.read) samples, \(result.rounds.count) round(s)"
        text += result.converged ? ", settled" : ", stopped at the round limit"
        text += "; \(learned) of \(result.estimates.count) beacons learned from traffic\n"
        if !skipped.isEmpty { text += "  skipped " + skipped.joined(separator: ", ") + "\n" }
        if startedFromPlanOnly {
            text +=
                "  the starting calibration names none of the plan's beacons (another site?): started from the plan's values\n"
        }
        text += String(format: "  starting models: cross-validated score %.4f nats per sample\n", result.startScore)
        for round in result.rounds {
            text += String(
                format:
                    "  round %d: %d samples paired with positions, %d without; largest change %.2f standard errors; score %.4f\n",
                round.index, round.pairedSamples, round.unplacedSamples, round.largestChange, round.score)
        }
        text +=
            result.keptRound > 0
            ? "  kept the models of round \(result.keptRound)\n"
            : "  no round predicted the traffic better than the starting models: they are kept\n"
        if let sigma = file.placeShadowingSigma {
            text += String(
                format:
                    "  shadowing a place keeps: %.2f dB (placeShadowingSigma; the radius of a phone that stays counts it)\n",
                sigma)
        }
        if let loss = file.wallAttenuation {
            text += String(format: "  walls the plan gives no loss: learned %.2f dB per wall (wallAttenuation)\n", loss)
        }
        let kept = result.estimates.filter { $0.source == .plan }
        if !kept.isEmpty {
            text +=
                "  kept at the plan's values (fewer than \(result.calibrator.settings.minimumSamples) samples): "
                + kept.map { "\($0.beacon) (\($0.count))" }.joined(separator: ", ") + "\n"
        }
        let offsets = result.deviceOffsets
        if offsets.count > 1 && (verbose || offsets.count <= Self.listedDeviceOffsets) {
            text +=
                "  device offsets from the average phone (dB): "
                + offsets.map { String(format: "%@ %+.1f", $0.device ?? "-", $0.offset) }.joined(separator: ", ")
                + "\n"
        } else if offsets.count > 1 {
            let sorted = offsets.sorted { $0.offset < $1.offset }
            let median = Median.of(sorted: sorted.map(\.offset))
            let low = sorted[0], high = sorted[sorted.count - 1]
            text += String(
                format:
                    "  device offsets from the average phone: %d devices, median %+.1f dB, from %+.1f dB (%@) to %+.1f dB (%@); every device with --verbose\n",
                offsets.count, median, low.offset, low.device ?? "-", high.offset, high.device ?? "-")
        }
        if let spread = result.deviceOffsetSpread, let sigma = deviceOffsetSigma {
            text += String(
                format:
                    "  device offsets spread %.1f dB over %d devices: locate --self-calibrate, or --calibration with the file, positions them with a %.2f-dB offset prior (deviceOffsetSigma)\n",
                spread.estimate, spread.devices, sigma)
        }
        return text + CalibrationTable(plan: plan, calibration: file).text
    }
}
