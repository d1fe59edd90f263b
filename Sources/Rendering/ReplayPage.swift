/// A self-contained HTML page that replays tracks over a floor picture (placeholder; the
/// replay comes with the time slider).
public struct ReplayPage: Sendable {
    /// The floor picture replayed.
    public let picture: PlanPicture

    /// A page for `picture`.
    public init(picture: PlanPicture) { self.picture = picture }

    /// The page.
    public func html() -> String { "<!DOCTYPE html><html><body>\(picture.svg())</body></html>\n" }
}
