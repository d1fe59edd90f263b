import Foundation

/// Output formats of `indoorpos locate`.
public enum FixFormat: String, Sendable, CaseIterable {
    /// The fixes CSV of `FORMATS.md`: `timestamp,x,y,floor,accuracy` then `device` (when the
    /// input has devices), `z`, `zone`, `source`, `beacons`.
    case csv
    /// One JSON object per line with the same fields.
    case jsonl
    /// A GeoJSON (RFC 7946) FeatureCollection in WGS 84 longitude/latitude: the floor outlines,
    /// a Point feature per fix with the CSV's columns as properties, and each device's track as
    /// a LineString. Needs the plan's ``Georeference``.
    case geojson
}

/// Writes ``PositionReport`` rows in a ``FixFormat``, streaming (nothing is kept but the
/// output buffer).
public final class FixWriter {
    private let output: OutputFile
    private let format: FixFormat
    private let includeDevice: Bool
    private let includeDeviceOffset: Bool
    private var written = 0
    private var geoJSON: GeoJSONFeatures?

    /// A writer into `output`; `includeDevice` adds the `device` column (inputs with devices),
    /// `includeDeviceOffset` a last `device_offset` column (dB, empty where none applies).
    /// `plan` is needed for ``FixFormat/geojson``: its georeference and floor outlines.
    /// - Throws: ``GeoJSONError/noGeoreference(plan:)`` for GeoJSON without a georeferenced plan.
    public init(output: OutputFile, format: FixFormat, includeDevice: Bool, includeDeviceOffset: Bool = false,
                plan: FloorPlan? = nil) throws(GeoJSONError) {
        self.output = output
        self.format = format
        self.includeDevice = includeDevice
        self.includeDeviceOffset = includeDeviceOffset
        switch format {
        case .csv:
            output.write("timestamp,x,y,floor,accuracy" + (includeDevice ? ",device" : "") + ",z,zone,source,beacons"
                         + (includeDeviceOffset ? ",device_offset" : "") + "\n")
        case .jsonl:
            break
        case .geojson:
            guard let plan else { throw .noGeoreference(plan: "") }
            var features = try GeoJSONFeatures(plan: plan)
            output.write(features.header(plan: plan))
            geoJSON = features
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
            if includeDeviceOffset { fields.append(report.deviceOffset.map { Self.number($0, digits: 2) } ?? "") }
            output.write(fields.joined(separator: ",") + "\n")
        case .jsonl:
            output.write(properties(report) + "\n")
        case .geojson:
            if let start = geoJSON?.pointStart(report) { output.write(start + properties(report) + "}") }
        }
        written += 1
    }

    /// Writes what a format needs at the end and commits the output.
    public func finish() throws(CSVError) {
        if let text = geoJSON?.footer() { output.write(text) }
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
        if includeDeviceOffset {
            parts.append("\"device_offset\":" + (report.deviceOffset.map { Self.number($0, digits: 2) } ?? "null"))
        }
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
