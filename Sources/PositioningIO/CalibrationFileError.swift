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
        }
    }
}
