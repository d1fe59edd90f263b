/// The region entries of a ``RegionMonitor``: the entries as the regions were added (shared by
/// every copy of the monitor, copy-on-write) and this copy's changes to them.
///
/// A venue's monitor is typically set up once and copied per phone; each phone then touches only
/// the regions it is in or near. Keeping those few changes apart means a copy costs memory in
/// proportion to the regions it touched, not to all regions (100,000 circles copied for 1,000
/// phones were 100 million entries before), and its first change does not copy every entry.
struct RegionEntries: Sendable {
    /// The entries as added (or as restored), by identifier.
    private var added: [String: RegionEntry] = [:]
    /// This copy's entries that differ from `added`, by identifier.
    private var changed: [String: RegionEntry] = [:]

    /// Regions held.
    var count: Int { added.count }

    /// The entry of region `id`. Setting an entry records a change of a region already defined
    /// (``define(_:as:)`` adds one); setting nil removes the region.
    subscript(id: String) -> RegionEntry? {
        get {
            if changed.isEmpty { return added[id] }
            return changed[id] ?? added[id]
        }
        set {
            if let newValue {
                changed[id] = newValue
            } else {
                added[id] = nil
                changed[id] = nil
            }
        }
    }

    /// Adds region `id`, or replaces it with a fresh entry (its changes are dropped).
    mutating func define(_ id: String, as entry: RegionEntry) {
        added[id] = entry
        changed[id] = nil
    }

    /// Entries this copy has changed (for tests of the memory a copy costs).
    var changedCount: Int { changed.count }
}
