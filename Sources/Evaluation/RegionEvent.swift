import PositioningIO

/// One row of an events CSV (`indoorpos monitor`'s output): a region's state changed at a time.
public struct RegionEvent: Sendable, Hashable {
    /// A region's state.
    public enum State: String, Sendable, Hashable {
        /// The region's condition became true (entered).
        case satisfied
        /// The region's condition became false (left).
        case unsatisfied
    }

    /// Time of the change, seconds (the samples' epoch).
    public var timestamp: Double
    /// The region's id.
    public var region: String
    /// The new state.
    public var state: State
    /// The device, when the file has a `device` column ("" otherwise).
    public var device: String
    /// The `UUID:major:minor` that satisfied a wildcard beacon condition, if given.
    public var refinement: String?
    /// A flag such as `implausible`, if given.
    public var flag: String?

    /// An event: `timestamp` in seconds.
    public init(
        timestamp: Double, region: String, state: State, device: String = "",
        refinement: String? = nil, flag: String? = nil
    ) {
        self.timestamp = timestamp
        self.region = region
        self.state = state
        self.device = device
        self.refinement = refinement
        self.flag = flag
    }

    /// Reads an events CSV: `timestamp,region,state` required, `device`, `refinement` and `flag`
    /// optional (empty cells mean none). Events are returned sorted by time (stably).
    /// - Throws: ``EvaluationError/input(_:)`` naming the file, line and column of the first
    ///   problem (a state other than `satisfied` or `unsatisfied`, an empty region, a timestamp
    ///   that is not a finite number). A file with a header only gives no events.
    public static func read(path: String) throws(EvaluationError) -> [RegionEvent] {
        do { return try read(csv: CSVReader(path: path)) } catch { throw .input(error) }
    }

    /// Reads events CSV text held in memory; `label` stands for the path in messages.
    public static func read(text: String, label: String = "<input>") throws(EvaluationError) -> [RegionEvent] {
        do { return try read(csv: CSVReader(text: text, label: label)) } catch { throw .input(error) }
    }

    private static func read(csv: CSVReader) throws(FileError) -> [RegionEvent] {
        let t = try csv.requireColumn("timestamp"), r = try csv.requireColumn("region"),
            s = try csv.requireColumn("state")
        let d = csv.column("device"), refinement = csv.column("refinement"), flag = csv.column("flag")
        var events: [(Int, RegionEvent)] = []
        func optional(_ row: [String], _ index: Int?) throws(FileError) -> String? {
            guard let index, index < row.count else { return nil }
            let text = try csv.field(row, index)
            return text.isEmpty ? nil : String(text)
        }
        while let row = try csv.next() {
            let stateText = try csv.field(row, s)
            guard let state = State(rawValue: stateText.lowercased()) else {
                throw .invalidValue(
                    path: csv.path, line: csv.line, column: csv.header[s], value: String(stateText),
                    expected: "satisfied or unsatisfied")
            }
            let region = try csv.field(row, r)
            guard !region.isEmpty else {
                throw .invalidValue(
                    path: csv.path, line: csv.line, column: csv.header[r], value: "",
                    expected: "a region id")
            }
            let event = RegionEvent(
                timestamp: try csv.double(row, t), region: String(region), state: state,
                device: try optional(row, d) ?? "", refinement: try optional(row, refinement),
                flag: try optional(row, flag))
            events.append((events.count, event))
        }
        return events.sorted { $0.1.timestamp != $1.1.timestamp ? $0.1.timestamp < $1.1.timestamp : $0.0 < $1.0 }.map(
            \.1)
    }
}
