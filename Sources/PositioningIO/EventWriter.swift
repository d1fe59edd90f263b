import Foundation

/// Output formats of `indoorpos monitor`.
public enum EventFormat: String, Sendable, CaseIterable {
    /// The events CSV of `FORMATS.md`: `timestamp,region,state`, then `device` (when the input
    /// has devices) and, when the regions include beacon conditions, `refinement`, `flag` and
    /// `reason`.
    case csv
    /// One JSON object per line with the same fields (null where a CSV field is empty).
    case jsonl
}

/// Writes `MonitorEvent` rows in an ``EventFormat``, streaming.
///
/// `refinement` is the `UUID:major:minor` that satisfied a beacon condition; `flag` is
/// `implausible` for an entry the plausibility check doubts, with `reason` one of
/// `other-floor`, `out-of-range`, `set-apart` (`PlausibilityFlag`).
public final class EventWriter {
    private let output: OutputFile
    private let format: EventFormat
    private let includeDevice: Bool
    private let includeBeaconColumns: Bool
    private var line = LineBytes()
    /// Number of events written.
    public private(set) var count = 0

    /// A writer into `output`. `includeDevice` adds the `device` column; `includeBeaconColumns`
    /// the `refinement`, `flag` and `reason` columns.
    public init(output: OutputFile, format: EventFormat, includeDevice: Bool, includeBeaconColumns: Bool) {
        self.output = output
        self.format = format
        self.includeDevice = includeDevice
        self.includeBeaconColumns = includeBeaconColumns
        if format == .csv {
            output.write(
                "timestamp,region,state" + (includeDevice ? ",device" : "")
                    + (includeBeaconColumns ? ",refinement,flag,reason" : "") + "\n")
        }
    }

    /// Writes one event of `device` (built as bytes in a reused line, as ``ReportWriter`` does).
    public func write(_ event: MonitorEvent, device: String?) {
        line.clear()
        switch format {
        case .csv:
            line.append(fixed: event.date, digits: 3)
            line.append(",")
            line.append(csvField: event.identifier)
            line.append(",")
            line.append(string: event.state.rawValue)
            if includeDevice {
                line.append(",")
                line.append(csvField: device ?? "")
            }
            if includeBeaconColumns {
                line.append(",")
                line.append(string: event.refinement?.description ?? "")
                line.append(event.flag == nil ? "," : ",implausible")
                line.append(",")
                line.append(string: event.flag?.rawValue ?? "")
            }
        case .jsonl:
            line.append("{\"timestamp\":")
            line.append(fixed: event.date, digits: 3)
            line.append(",\"region\":")
            line.append(jsonString: event.identifier)
            line.append(",\"state\":\"")
            line.append(string: event.state.rawValue)
            line.append("\"")
            if includeDevice {
                line.append(",\"device\":")
                line.append(jsonString: device ?? "")
            }
            if includeBeaconColumns {
                line.append(string: ",\"refinement\":" + (event.refinement.map { "\"\($0)\"" } ?? "null"))
                line.append(string: ",\"flag\":" + (event.flag == nil ? "null" : "\"implausible\""))
                line.append(string: ",\"reason\":" + (event.flag.map { "\"\($0.rawValue)\"" } ?? "null"))
            }
            line.append("}")
        }
        line.append("\n")
        output.write(line.bytes)
        count += 1
    }

    /// Commits the output.
    public func finish() throws(FileError) {
        try output.commit()
    }
}
