import Foundation

/// Writes `PositionReport` rows in a ``ReportFormat``, streaming (nothing is kept but the
/// output buffer).
public final class ReportWriter {
    private let output: OutputFile
    private let format: ReportFormat
    private let lineFormat: ReportLineFormat
    private var written = 0
    private var line = LineBytes()
    private let plan: FloorPlan?
    private var geoJSON: GeoJSONFeatures?

    /// A writer into `output`; `includeDevice` adds the `device` column (inputs with devices),
    /// `includeCovariance` the horizontal covariance `var_x,var_y,cov_xy` (m², six decimals) after
    /// `beacons`, `includeDeviceOffset` a `device_offset` column (dB, empty where none applies),
    /// `includeMotion` the tracker's motion-mode probabilities as last columns `p_standing`,
    /// `p_strolling`, `p_walking` (empty where the report is not tracked).
    /// `plan` is needed for ``ReportFormat/geojson``: its georeference and floor outlines; a plan
    /// with zones adds the last column `zone_probability` (the probability of the zone reported,
    /// or of none; empty where the floor has no zones).
    /// - Throws: ``GeoJSONError/noGeoreference(plan:)`` for GeoJSON without a georeferenced plan.
    public init(
        output: OutputFile, format: ReportFormat, includeDevice: Bool, includeDeviceOffset: Bool = false,
        includeCovariance: Bool = false, includeMotion: Bool = false, plan: FloorPlan? = nil
    ) throws(GeoJSONError) {
        self.output = output
        self.format = format
        lineFormat = ReportLineFormat(
            format: format, includeDevice: includeDevice, includeDeviceOffset: includeDeviceOffset,
            includeCovariance: includeCovariance, includeMotion: includeMotion,
            includeZoneProbability: plan?.floors.contains { !$0.zones.isEmpty } ?? false)
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
            if lineFormat.includeDevice { header += ",device" }
            header += ",z,zone,source,beacons"
            if lineFormat.includeCovariance { header += ",var_x,var_y,cov_xy" }
            if lineFormat.includeDeviceOffset { header += ",device_offset" }
            if lineFormat.includeMotion { header += ",p_standing,p_strolling,p_walking" }
            if lineFormat.includeZoneProbability { header += ",zone_probability" }
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
        if format == .geojson {
            guard let start = geoJSON?.pointStart(report) else { return }
            line.append(string: start)
            lineFormat.appendProperties(report, to: &line)
            line.append("}")
        } else {
            lineFormat.appendLine(report, to: &line)
        }
        output.write(line.bytes)
        written += 1
    }

    /// A function that encodes one report as this writer writes it, for threads of their own
    /// (`ShardedPositioningEngine.ReportEncoder`): nil for GeoJSON, whose features only this
    /// writer can separate. Its bytes go to ``write(encoded:reports:)``.
    public var encoder: ShardedPositioningEngine.ReportEncoder? { lineFormat.encoder }

    /// Writes the bytes of `reports` reports made by ``encoder``, in output order.
    public func write(encoded bytes: [UInt8], reports: Int) {
        output.write(bytes)
        written += reports
    }

    /// Writes what a format needs at the end and commits the output.
    public func finish() throws(FileError) {
        if let text = geoJSON?.footer() { output.write(text) }
        try output.commit()
    }
}
