import Foundation

/// Writes `PositionReport` rows in a ``ReportFormat``, streaming (nothing is kept but the
/// output buffer).
public final class ReportWriter {
    private let output: OutputFile
    private let format: ReportFormat
    private let includeDevice: Bool
    private let includeDeviceOffset: Bool
    private let includeCovariance: Bool
    private let includeMotion: Bool
    private var written = 0
    private var line = LineBytes()
    private let plan: FloorPlan?
    private var geoJSON: GeoJSONFeatures?

    /// A writer into `output`; `includeDevice` adds the `device` column (inputs with devices),
    /// `includeCovariance` the horizontal covariance `var_x,var_y,cov_xy` (m², six decimals) after
    /// `beacons`, `includeDeviceOffset` a `device_offset` column (dB, empty where none applies),
    /// `includeMotion` the tracker's motion-mode probabilities as last columns `p_standing`,
    /// `p_strolling`, `p_walking` (empty where the report is not tracked).
    /// `plan` is needed for ``ReportFormat/geojson``: its georeference and floor outlines.
    /// - Throws: ``GeoJSONError/noGeoreference(plan:)`` for GeoJSON without a georeferenced plan.
    public init(
        output: OutputFile, format: ReportFormat, includeDevice: Bool, includeDeviceOffset: Bool = false,
        includeCovariance: Bool = false, includeMotion: Bool = false, plan: FloorPlan? = nil
    ) throws(GeoJSONError) {
        self.output = output
        self.format = format
        self.includeDevice = includeDevice
        self.includeDeviceOffset = includeDeviceOffset
        self.includeCovariance = includeCovariance
        self.includeMotion = includeMotion
        self.plan = plan
        if format == .geojson {
            guard let plan else { throw .noGeoreference(plan: "") }
            geoJSON = try GeoJSONFeatures(plan: plan)
        }
        writeHeader()
    }

    /// Discards everything written so far and starts again with the header (for a run that
    /// has to start over). False when part of the output already went to standard output.
    public func restart() -> Bool {
        guard output.rewind() else { return false }
        written = 0
        writeHeader()
        return true
    }

    private func writeHeader() {
        switch format {
        case .csv:
            var header: String = "timestamp,x,y,floor,accuracy"
            if includeDevice { header += ",device" }
            header += ",z,zone,source,beacons"
            if includeCovariance { header += ",var_x,var_y,cov_xy" }
            if includeDeviceOffset { header += ",device_offset" }
            if includeMotion { header += ",p_standing,p_strolling,p_walking" }
            output.write(header + "\n")
        case .jsonl:
            break
        case .geojson:
            // A restart begins a fresh collection (the features seen so far are forgotten).
            guard let plan, var features = try? GeoJSONFeatures(plan: plan) else { return }
            output.write(features.header(plan: plan))
            geoJSON = features
        }
    }

    /// Number of reports written.
    public var count: Int { written }

    /// Writes one report (built as bytes in a reused line; no allocation per report).
    public func write(_ report: PositionReport) {
        line.clear()
        switch format {
        case .csv:
            line.append(fixed: report.timestamp, digits: 3)
            line.append(",")
            line.append(fixed: report.position.x, digits: 3)
            line.append(",")
            line.append(fixed: report.position.y, digits: 3)
            line.append(",")
            line.append(integer: report.level)
            line.append(",")
            line.append(fixed: report.accuracy, digits: 3)
            if includeDevice {
                line.append(",")
                line.append(csvField: report.device ?? "")
            }
            line.append(",")
            line.append(fixed: report.position.z, digits: 3)
            line.append(",")
            line.append(csvField: report.zone ?? "")
            line.append(",")
            line.append(report.source.rawValue)
            line.append(",")
            line.append(integer: report.beaconCount)
            if includeCovariance {
                line.append(",")
                line.append(fixed: report.covariance.xx, digits: 6)
                line.append(",")
                line.append(fixed: report.covariance.yy, digits: 6)
                line.append(",")
                line.append(fixed: report.covariance.xy, digits: 6)
            }
            if includeDeviceOffset {
                line.append(",")
                if let offset = report.deviceOffset { line.append(fixed: offset, digits: 2) }
            }
            if includeMotion {
                for mode in MotionMode.allCases {
                    line.append(",")
                    if let motion = report.motion { line.append(fixed: motion[mode], digits: 3) }
                }
            }
            line.append("\n")
        case .jsonl:
            appendProperties(report)
            line.append("\n")
        case .geojson:
            guard let start = geoJSON?.pointStart(report) else { return }
            line.append(start)
            appendProperties(report)
            line.append("}")
        }
        output.write(line.bytes)
        written += 1
    }

    /// Writes what a format needs at the end and commits the output.
    public func finish() throws(FileError) {
        if let text = geoJSON?.footer() { output.write(text) }
        try output.commit()
    }

    private func appendProperties(_ report: PositionReport) {
        line.append("{\"timestamp\":")
        line.append(fixed: report.timestamp, digits: 3)
        if includeDevice {
            line.append(",\"device\":")
            line.append(jsonString: report.device ?? "")
        }
        line.append(",\"x\":")
        line.append(fixed: report.position.x, digits: 3)
        line.append(",\"y\":")
        line.append(fixed: report.position.y, digits: 3)
        line.append(",\"z\":")
        line.append(fixed: report.position.z, digits: 3)
        line.append(",\"floor\":")
        line.append(integer: report.level)
        line.append(",\"accuracy\":")
        line.append(fixed: report.accuracy, digits: 3)
        line.append(",\"zone\":")
        if let zone = report.zone { line.append(jsonString: zone) } else { line.append("null") }
        line.append(",\"source\":\"")
        line.append(report.source.rawValue)
        line.append("\",\"beacons\":")
        line.append(integer: report.beaconCount)
        if includeCovariance {
            line.append(",\"var_x\":")
            line.append(fixed: report.covariance.xx, digits: 6)
            line.append(",\"var_y\":")
            line.append(fixed: report.covariance.yy, digits: 6)
            line.append(",\"cov_xy\":")
            line.append(fixed: report.covariance.xy, digits: 6)
        }
        if includeDeviceOffset {
            line.append(",\"device_offset\":")
            if let offset = report.deviceOffset { line.append(fixed: offset, digits: 2) } else { line.append("null") }
        }
        if includeMotion {
            for mode in MotionMode.allCases {
                line.append(",\"p_\(mode)\":")
                if let motion = report.motion {
                    line.append(fixed: motion[mode], digits: 3)
                } else {
                    line.append("null")
                }
            }
        }
        line.append("}")
    }
}
