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

/// Writes ``MonitorEvent`` rows in an ``EventFormat``, streaming.
///
/// `refinement` is the `UUID:major:minor` that satisfied a beacon condition; `flag` is
/// `implausible` for an entry the plausibility check doubts, with `reason` one of
/// `other-floor`, `out-of-range`, `set-apart` (``PlausibilityFlag``).
public final class EventWriter {
    private let output: OutputFile
    private let format: EventFormat
    private let includeDevice: Bool
    private let includeBeaconColumns: Bool
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
            output.write("timestamp,region,state" + (includeDevice ? ",device" : "")
                         + (includeBeaconColumns ? ",refinement,flag,reason" : "") + "\n")
        }
    }

    /// Writes one event of `device`.
    public func write(_ event: MonitorEvent, device: String?) {
        let time = FixWriter.number(event.date, digits: 3)
        switch format {
        case .csv:
            var fields = [time, FixWriter.csvField(event.identifier), event.state.rawValue]
            if includeDevice { fields.append(FixWriter.csvField(device ?? "")) }
            if includeBeaconColumns {
                fields.append(event.refinement?.description ?? "")
                fields.append(event.flag == nil ? "" : "implausible")
                fields.append(event.flag?.rawValue ?? "")
            }
            output.write(fields.joined(separator: ",") + "\n")
        case .jsonl:
            var parts = ["\"timestamp\":\(time)", "\"region\":\(FixWriter.jsonString(event.identifier))",
                         "\"state\":\"\(event.state.rawValue)\""]
            if includeDevice { parts.append("\"device\":\(FixWriter.jsonString(device ?? ""))") }
            if includeBeaconColumns {
                parts.append("\"refinement\":" + (event.refinement.map { "\"\($0)\"" } ?? "null"))
                parts.append("\"flag\":" + (event.flag == nil ? "null" : "\"implausible\""))
                parts.append("\"reason\":" + (event.flag.map { "\"\($0.rawValue)\"" } ?? "null"))
            }
            output.write("{" + parts.joined(separator: ",") + "}\n")
        }
        count += 1
    }

    /// Commits the output.
    public func finish() throws(CSVError) {
        try output.commit()
    }
}
