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

    /// Writes one report.
    public func write(_ report: PositionReport) {
        switch format {
        case .csv:
            var fields = [Self.number(report.timestamp, digits: 3), Self.number(report.position.x),
                          Self.number(report.position.y), String(report.level), Self.number(report.accuracy)]
            if includeDevice { fields.append(Self.csvField(report.device ?? "")) }
            fields.append(Self.number(report.position.z))
            fields.append(Self.csvField(report.zone ?? ""))
            fields.append(report.source.rawValue)
            fields.append(String(report.beaconCount))
            output.write(fields.joined(separator: ",") + "\n")
        case .jsonl:
            output.write(properties(report) + "\n")
        case .geojson:
            let geometry = "{\"type\":\"Point\",\"coordinates\":[\(Self.number(report.position.x)),\(Self.number(report.position.y))]}"
            output.write((written > 0 ? ",\n" : "") + "{\"type\":\"Feature\",\"geometry\":\(geometry),\"properties\":\(properties(report))}")
        }
        written += 1
    }

    /// Writes what a format needs at the end and commits the output.
    public func finish() throws(CSVError) {
        if format == .geojson { output.write("\n]}\n") }
        try output.commit()
    }

    private func properties(_ report: PositionReport) -> String {
        var parts = ["\"timestamp\":\(Self.number(report.timestamp, digits: 3))"]
        if includeDevice { parts.append("\"device\":\(Self.jsonString(report.device ?? ""))") }
        parts.append("\"x\":\(Self.number(report.position.x))")
        parts.append("\"y\":\(Self.number(report.position.y))")
        parts.append("\"z\":\(Self.number(report.position.z))")
        parts.append("\"floor\":\(report.level)")
        parts.append("\"accuracy\":\(Self.number(report.accuracy))")
        parts.append("\"zone\":" + (report.zone.map(Self.jsonString) ?? "null"))
        parts.append("\"source\":\"\(report.source.rawValue)\"")
        parts.append("\"beacons\":\(report.beaconCount)")
        return "{" + parts.joined(separator: ",") + "}"
    }

    static func number(_ value: Double, digits: Int = 3) -> String {
        guard value.isFinite else { return "null" }
        return String(format: "%.\(digits)f", value)
    }

    static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    static func jsonString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 {
                    out += String(format: "\\u%04x", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
