import Foundation

/// The strict syntax check of the package's JSON parser (duplicate keys, nesting depth,
/// trailing text), for formats that decode with `JSONDecoder`, which accepts duplicate keys
/// silently (the last one wins).
extension JSONElement {
    /// Throws ``JSONError/malformedJSON(detail:)`` (with line and column) unless `data` is
    /// one well-formed JSON document without duplicate keys.
    public static func check(_ data: Data) throws(JSONError) {
        _ = try JSONParser.parse(Array(data))
    }
}
