/// A named area of a floor, such as a room or a lobby.
public struct Zone: Sendable, Hashable {
    /// Identifier, unique within its floor (used by regions and in fix output).
    public var id: String
    /// Human-readable name, if any.
    public var name: String?
    /// The zone's outline on the floor.
    public var polygon: Polygon

    /// A zone: `id` unique within its floor, `polygon` in metres in the building frame.
    public init(id: String, name: String? = nil, polygon: Polygon) {
        self.id = id
        self.name = name
        self.polygon = polygon
    }
}
