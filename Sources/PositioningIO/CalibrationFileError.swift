/// Why a calibration JSON file could not be loaded. Messages name the file and the JSON path.
public enum CalibrationFileError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file could not be read.
    case unreadable(path: String, detail: String)
    /// The file is not JSON of the expected shape.
    case invalidJSON(path: String, detail: String)
    /// A value is missing or out of range; `jsonPath` is like `beacons[2].pathLossExponent`.
    case invalidValue(path: String, jsonPath: String, detail: String)
    /// Two entries calibrate the same beacon.
    case duplicateBeacon(path: String, jsonPath: String, beacon: String)
    /// The file has per-beacon fits, but none for a beacon of the plan it is used with (a file
    /// of another site, or of other UUIDs): `entries` fits, the first for `example`; the plan's
    /// first beacon is `planExample`.
    case noPlanBeacon(path: String, entries: Int, example: String, planExample: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let detail):
            return "\(path): cannot read: \(detail)"
        case .invalidJSON(let path, let detail):
            return "\(path): not a calibration JSON file: \(detail)"
        case .invalidValue(let path, let jsonPath, let detail):
            return "\(path): \(jsonPath): \(detail)"
        case .duplicateBeacon(let path, let jsonPath, let beacon):
            return "\(path): \(jsonPath): beacon \(beacon) is calibrated twice; keep one entry"
        case .noPlanBeacon(let path, let entries, let example, let planExample):
            return
                "\(path): calibrates none of the plan's beacons (its \(entries) beacon fit(s) are for others, such as "
                + "\(example); the plan has \(planExample) …); check that the file belongs to this plan"
        }
    }
}
