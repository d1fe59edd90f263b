import Foundation

/// Output formats of `indoorpos locate`.
public enum FixFormat: String, Sendable, CaseIterable {
    /// The fixes CSV of `FORMATS.md`: `timestamp,x,y,floor,accuracy` then `device` (when the
    /// input has devices), `z`, `zone`, `source`, `beacons`.
    case csv
    /// One JSON object per line with the same fields.
    case jsonl
    /// A GeoJSON FeatureCollection of Point features in the building's local metric frame
    /// (x east, y north; no geographic reference), properties as in the CSV.
    case geojson
}

/// Writes ``PositionReport`` rows in a ``FixFormat``, streaming (nothing is kept but the
/// output buffer).
public final class FixWriter {
    private let output: OutputFile
    private let format: FixFormat
    private let includeDevice: Bool
    private var written = 0
    private var line = LineBytes()

    /// A writer into `output`; `includeDevice` adds the `device` column (inputs with devices).
    public init(output: OutputFile, format: FixFormat, includeDevice: Bool) {
        self.output = output
        self.format = format
        self.includeDevice = includeDevice
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
            output.write("timestamp,x,y,floor,accuracy" + (includeDevice ? ",device" : "") + ",z,zone,source,beacons\n")
        case .jsonl:
            break
        case .geojson:
            output.write("{\"type\":\"FeatureCollection\",\"features\":[\n")
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
            line.append("\n")
        case .jsonl:
            appendProperties(report)
            line.append("\n")
        case .geojson:
            if written > 0 { line.append(",\n") }
            line.append("{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":[")
            line.append(fixed: report.position.x, digits: 3)
            line.append(",")
            line.append(fixed: report.position.y, digits: 3)
            line.append("]},\"properties\":")
            appendProperties(report)
            line.append("}")
        }
        output.write(line.bytes)
        written += 1
    }

    /// Writes what a format needs at the end and commits the output.
    public func finish() throws(CSVError) {
        if format == .geojson { output.write("\n]}\n") }
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
        line.append("}")
    }
}
