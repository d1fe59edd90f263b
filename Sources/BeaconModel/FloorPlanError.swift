import StrictJSON

/// Why a floor plan could not be loaded, made or saved.
///
/// Every case but ``malformedJSON(detail:)`` names the JSON path of the offending value (for
/// example `floors[1].beacons[3].major`) and, where there is one, the value as written, so that
/// the file can be fixed. ``description`` is one line a user can act on, for example
/// `floors[1].beacons[3].major: 70000 is out of range 0...65535`.
public enum FloorPlanError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The data is not JSON at all, or not UTF-8. `detail` says what was wrong and where
    /// (line and column, both counted from 1).
    case malformedJSON(detail: String)
    /// A required key is missing; `path` is the path the key should have had.
    case missingKey(path: String)
    /// A value has the wrong JSON type (for example a string where a number belongs, or a
    /// fractional number where an integer belongs). `found` describes the value as written.
    case wrongType(path: String, expected: String, found: String)
    /// A number is outside its allowed range. `value` is the number as written, `range` the
    /// allowed range with its unit.
    case outOfRange(path: String, value: String, range: String)
    /// A number is NaN or infinite (in JSON: a literal too large for a `Double`, such as 1e400).
    case nonFinite(path: String, value: String)
    /// A UUID string does not parse.
    case malformedUUID(path: String, value: String)
    /// The same beacon identity appears twice; `firstPath` is where it appeared first.
    case duplicateIdentity(path: String, identity: String, firstPath: String)
    /// Two floors share a level; `firstPath` is the first floor's `level`.
    case duplicateLevel(path: String, level: Int, firstPath: String)
    /// Two zones of one floor share an id; `firstPath` is the first zone's `id`.
    case duplicateZone(path: String, id: String, firstPath: String)
    /// A polygon has fewer than three vertices.
    case tooFewVertices(path: String, count: Int)
    /// A polygon has more vertices than ``Polygon/maximumVertexCount`` (its simplicity check
    /// is quadratic, so a hostile file could otherwise stall loading).
    case tooManyVertices(path: String, count: Int, limit: Int)
    /// A zone id is empty (fixes use the id to name the zone, and empty means "no zone").
    case emptyZoneID(path: String)
    /// A polygon is not simple: edge `edge` (from vertex `edge` to the next) crosses or touches
    /// edge `otherEdge`. When both are equal the edge has zero length (a vertex is repeated).
    case selfIntersecting(path: String, edge: Int, otherEdge: Int)
    /// A polygon's points all lie on one line (or on one point): it encloses no area.
    case noArea(path: String)
    /// A wall whose two ends are the same point.
    case zeroLengthWall(path: String)
    /// A floor with more walls than ``Wall/maximumPerFloor``.
    case tooManyWalls(path: String, count: Int, limit: Int)
    /// The file's `formatVersion` is newer than this library reads.
    case unsupportedFormatVersion(path: String, version: Int)
    /// A key the format does not know but close to one it does (most likely a typo that would
    /// otherwise be ignored); `suggestion` is the known key.
    case misspelledKey(path: String, key: String, suggestion: String)
    /// The file could not be read or written; `path` is the file path.
    case io(path: String, detail: String)

    /// The JSON path (or the file path for ``io(path:detail:)``) the error is about; empty for
    /// ``malformedJSON(detail:)`` and for the top level of the document.
    public var path: String {
        switch self {
        case .malformedJSON: return ""
        case .missingKey(let p), .wrongType(let p, _, _), .outOfRange(let p, _, _), .nonFinite(let p, _),
            .malformedUUID(let p, _), .duplicateIdentity(let p, _, _), .duplicateLevel(let p, _, _),
            .duplicateZone(let p, _, _), .tooFewVertices(let p, _), .tooManyVertices(let p, _, _),
            .emptyZoneID(let p), .selfIntersecting(let p, _, _), .noArea(let p), .zeroLengthWall(let p),
            .tooManyWalls(let p, _, _),
            .unsupportedFormatVersion(let p, _), .misspelledKey(let p, _, _), .io(let p, _):
            return p
        }
    }

    /// One line: the path, the value and what to do about it. Strings from the file are quoted
    /// with control characters escaped, so the message never spans lines.
    public var description: String {
        let where_ = path.isEmpty ? "top level" : path
        switch self {
        case .malformedJSON(let detail):
            return "the floor plan is not valid JSON: \(detail)"
        case .missingKey, .wrongType, .outOfRange, .nonFinite, .malformedUUID:
            // The JSON reader's own message for the same case.
            return json.map(\.description) ?? where_
        case .duplicateIdentity(_, let identity, let firstPath):
            return "\(where_): beacon \(identity) is already placed at \(firstPath)"
        case .duplicateLevel(_, let level, let firstPath):
            return "\(where_): level \(level) is already used by \(firstPath)"
        case .duplicateZone(_, let id, let firstPath):
            return "\(where_): zone id \(id.quotedForMessage()) is already used by \(firstPath) on the same floor"
        case .tooFewVertices(_, let count):
            return "\(where_): a polygon needs at least 3 points, has \(count)"
        case .tooManyVertices(_, let count, let limit):
            return "\(where_): a polygon may have at most \(limit) points, has \(count); simplify the outline"
        case .emptyZoneID:
            return "\(where_): a zone id must not be empty; give the zone a short name such as \"lobby\""
        case .tooManyWalls(_, let count, let limit):
            return
                "\(where_): a floor may have at most \(limit) walls, has \(count); join straight runs into one segment each"
        case .zeroLengthWall:
            return
                "\(where_): the wall's two ends are the same point; give its two ends (a door is a gap between walls)"
        case .noArea:
            return "\(where_): the polygon has no area (its points lie on one line); give the corners of the region"
        case .selfIntersecting(_, let edge, let otherEdge) where edge == otherEdge:
            return "\(where_): vertex \(edge) repeats the next vertex; remove one of them"
        case .selfIntersecting(_, let edge, let otherEdge):
            return "\(where_): edges \(edge) and \(otherEdge) cross (edge k joins vertex k to the next); "
                + "list the vertices in order around the outline"
        case .unsupportedFormatVersion(_, let version):
            return "\(where_): format version \(version) is newer than this library reads "
                + "(\(FloorPlan.currentFormatVersion)); update the library or save the plan as version 1"
        case .misspelledKey(_, let key, let suggestion):
            return
                "\(where_): unknown key \(key.quotedForMessage(limit: 40)); did you mean \(suggestion.quotedForMessage())? "
                + "(a misspelled key would be ignored)"
        case .io(let path, let detail):
            return "\(path): \(detail)"
        }
    }
}

extension FloorPlanError {
    /// The JSON reader's error this is, for the cases the two share.
    var json: JSONError? {
        switch self {
        case .malformedJSON(let detail): return .malformedJSON(detail: detail)
        case .missingKey(let path): return .missingKey(path: path)
        case .wrongType(let path, let expected, let found):
            return .wrongType(path: path, expected: expected, found: found)
        case .outOfRange(let path, let value, let range): return .outOfRange(path: path, value: value, range: range)
        case .nonFinite(let path, let value): return .nonFinite(path: path, value: value)
        case .malformedUUID(let path, let value): return .malformedUUID(path: path, value: value)
        case .misspelledKey(let path, let key, let suggestion):
            return .misspelledKey(path: path, key: key, suggestion: suggestion)
        default: return nil
        }
    }

    /// The floor plan's error for a JSON reading error: the same case, path and value (the
    /// message of a syntax error names the floor plan).
    init(_ error: JSONError) {
        switch error {
        case .malformedJSON(let detail): self = .malformedJSON(detail: detail)
        case .missingKey(let path): self = .missingKey(path: path)
        case .wrongType(let path, let expected, let found):
            self = .wrongType(path: path, expected: expected, found: found)
        case .outOfRange(let path, let value, let range): self = .outOfRange(path: path, value: value, range: range)
        case .nonFinite(let path, let value): self = .nonFinite(path: path, value: value)
        case .malformedUUID(let path, let value): self = .malformedUUID(path: path, value: value)
        case .misspelledKey(let path, let key, let suggestion):
            self = .misspelledKey(path: path, key: key, suggestion: suggestion)
        }
    }
}
