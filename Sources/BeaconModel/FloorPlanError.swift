/// Why a floor plan could not be loaded or made. Every case names the JSON path of the
/// offending value (for example `floors[1].beacons[3].major`) so that the file can be fixed.
public enum FloorPlanError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The data is not JSON at all, or not UTF-8.
    case malformedJSON(detail: String)
    /// A required key is missing.
    case missingKey(path: String)
    /// A value has the wrong JSON type (for example a string where a number belongs).
    case wrongType(path: String, expected: String)
    /// A number is outside its allowed range.
    case outOfRange(path: String, value: String, range: String)
    /// A number is NaN or infinite.
    case nonFinite(path: String)
    /// A UUID string does not parse.
    case malformedUUID(path: String, value: String)
    /// The same beacon identity appears twice.
    case duplicateIdentity(path: String, identity: String, firstPath: String)
    /// Two floors share a level.
    case duplicateLevel(path: String, level: Int, firstPath: String)
    /// A polygon has fewer than three vertices.
    case tooFewVertices(path: String, count: Int)
    /// A polygon's edges cross (it is not simple).
    case selfIntersecting(path: String)
    /// The file's `formatVersion` is newer than this library understands.
    case unsupportedFormatVersion(path: String, version: Int)
    /// The file could not be read or written.
    case io(path: String, detail: String)

    /// The JSON path (or file path for ``io(path:detail:)``) the error is about.
    public var path: String {
        switch self {
        case .malformedJSON: return ""
        case .missingKey(let p), .wrongType(let p, _), .outOfRange(let p, _, _), .nonFinite(let p),
             .malformedUUID(let p, _), .duplicateIdentity(let p, _, _), .duplicateLevel(let p, _, _),
             .tooFewVertices(let p, _), .selfIntersecting(let p), .unsupportedFormatVersion(let p, _),
             .io(let p, _):
            return p
        }
    }

    public var description: String {
        switch self {
        case .malformedJSON(let detail):
            return "the floor plan is not valid JSON: \(detail)"
        case .missingKey(let path):
            return "\(path): required key is missing"
        case .wrongType(let path, let expected):
            return "\(path): expected \(expected)"
        case .outOfRange(let path, let value, let range):
            return "\(path): \(value) is out of range \(range)"
        case .nonFinite(let path):
            return "\(path): must be a finite number"
        case .malformedUUID(let path, let value):
            return "\(path): \"\(value)\" is not a UUID (expected 8-4-4-4-12 hexadecimal digits)"
        case .duplicateIdentity(let path, let identity, let firstPath):
            return "\(path): beacon \(identity) is already placed at \(firstPath)"
        case .duplicateLevel(let path, let level, let firstPath):
            return "\(path): level \(level) is already used by \(firstPath)"
        case .tooFewVertices(let path, let count):
            return "\(path): a polygon needs at least 3 points, has \(count)"
        case .selfIntersecting(let path):
            return "\(path): polygon edges cross each other; list the vertices in order around the outline"
        case .unsupportedFormatVersion(let path, let version):
            return "\(path): format version \(version) is newer than this library reads (\(FloorPlan.currentFormatVersion))"
        case .io(let path, let detail):
            return "\(path): \(detail)"
        }
    }
}
