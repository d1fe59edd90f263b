import BeaconModel
import StrictJSON

/// Why a region could not be added, or a regions file or snapshot could not be read.
///
/// Cases about a regions file name the JSON path of the offending value (for example
/// `regions[3].circle.radius`) and the value as written; ``description`` is one line a user can
/// act on.
public enum MonitorError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A JSON problem in the regions file (syntax, a missing key, a wrong type, a value out of
    /// range, NaN or infinity, a malformed UUID), with its path.
    case json(JSONError)
    /// A zone id that no floor of the plan has.
    case unknownZone(path: String, id: String)
    /// Two regions share an identifier; `firstPath` is where it was first used.
    case duplicateIdentifier(path: String, id: String, firstPath: String)
    /// An identifier is empty.
    case emptyIdentifier(path: String)
    /// A region names a parent that does not exist.
    case missingParent(path: String, parent: String)
    /// Following parents from this region comes back to it; `cycle` lists the ids in order.
    case parentCycle(path: String, cycle: [String])
    /// A circle of region `id` lies on a level the plan has no floor at (`levels` are the
    /// plan's): it could never be entered.
    case unknownLevel(path: String, id: String, level: Int, levels: [Int])
    /// A circle's radius is not a positive finite number of metres.
    case invalidRadius(path: String, value: String)
    /// A number of a condition (a circle's centre) is NaN or infinite.
    case nonFinite(path: String, value: String)
    /// A region must have exactly one of `beacon`, `circle` and `zone`.
    case conditionCount(path: String, found: Int)
    /// A hysteresis setting is out of range.
    case invalidHysteresis(path: String, detail: String)
    /// A snapshot was written by a newer version or does not decode.
    case invalidSnapshot(detail: String)
    /// The file could not be read.
    case io(path: String, detail: String)

    /// One line: the path, the value and what to do about it.
    public var description: String {
        func at(_ path: String) -> String { path.isEmpty ? "top level" : path }
        switch self {
        case .json(.malformedJSON(let detail)):
            return "the regions file is not valid JSON: \(detail)"
        case .json(let error):
            return error.description
        case .unknownZone(let path, let id):
            return
                "\(at(path)): zone \"\(id)\" is not in the floor plan; use a zone id from the plan's floors[].zones[].id"
        case .duplicateIdentifier(let path, let id, let firstPath):
            return "\(at(path)): region id \"\(id)\" is already used by \(firstPath); ids must be unique"
        case .emptyIdentifier(let path):
            return "\(at(path)): a region id must not be empty"
        case .missingParent(let path, let parent):
            return "\(at(path)): parent \"\(parent)\" is not a region id of this file"
        case .parentCycle(let path, let cycle):
            return "\(at(path)): parents form a cycle \(cycle.joined(separator: " → ")); a region cannot contain itself"
        case .unknownLevel(let path, let id, let level, let levels):
            let shown = levels.prefix(12).map(String.init).joined(separator: ", ")
            let list = levels.count > 12 ? shown + ", … (\(levels.count) floors)" : shown
            return
                "\(at(path)): region \(id.quotedForMessage()) is a circle on level \(level), which the plan has no floor at "
                + "(its levels: \(list)); it could never be entered"
        case .invalidRadius(let path, let value):
            return "\(at(path)): radius \(value) must be a positive number of metres"
        case .nonFinite(let path, let value):
            return "\(at(path)): \(value) is not a finite number"
        case .conditionCount(let path, let found):
            return "\(at(path)): a region needs exactly one of \"beacon\", \"circle\" and \"zone\", found \(found)"
        case .invalidHysteresis(let path, let detail):
            return "\(at(path)): \(detail)"
        case .invalidSnapshot(let detail):
            return "the monitor snapshot cannot be restored: \(detail)"
        case .io(let path, let detail):
            return "\(path): \(detail)"
        }
    }
}
