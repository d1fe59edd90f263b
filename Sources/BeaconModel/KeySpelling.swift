import StrictJSON

/// The floor plan's check for misspelled keys (see `JSONKeySpelling`).
extension PlanObjectNode {
    /// Throws ``FloorPlanError/misspelledKey(path:key:suggestion:)`` for the first member (in key
    /// order) that is not one of `known` but close to one of them.
    func rejectMisspelledKeys(known: [String]) throws(FloorPlanError) {
        for key in keys.sorted() {
            if let suggestion = JSONKeySpelling.suggestion(for: key, known: known) {
                throw .misspelledKey(path: path(for: key), key: key, suggestion: suggestion)
            }
        }
    }
}
