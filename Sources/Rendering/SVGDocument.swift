import Foundation

/// A small SVG 1.1 writer: elements are appended as text, coordinates in the picture's pixels
/// (y down), numbers with two decimals. Text is escaped for XML.
public struct SVGDocument: Sendable {
    /// Picture size, pixels.
    public let width: Double, height: Double
    private var body: [String] = []

    /// An empty picture of `width` × `height` pixels.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// A number for an attribute: two decimals, trailing zeros dropped, never NaN ("0").
    public static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        var text = String(format: "%.2f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }

    /// `text` with `&`, `<`, `>`, `"` and `'` escaped, and the characters XML 1.0 does not
    /// allow (control characters but tab, U+FFFE, U+FFFF) dropped.
    public static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default:
                if (scalar.value < 0x20 && scalar != "\t") || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    continue
                }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Appends raw markup (already escaped).
    public mutating func raw(_ markup: String) { body.append(markup) }

    /// Attributes as ` key="value"` pairs (values escaped).
    static func attributes(_ pairs: [(String, String)]) -> String {
        pairs.map { " \($0.0)=\"\(escaped($0.1))\"" }.joined()
    }

    /// A line from (x1, y1) to (x2, y2).
    public mutating func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, _ style: [(String, String)] = [])
    {
        raw(
            "<line x1=\"\(Self.number(x1))\" y1=\"\(Self.number(y1))\" x2=\"\(Self.number(x2))\" y2=\"\(Self.number(y2))\"\(Self.attributes(style))/>"
        )
    }

    /// A polyline (open) or polygon (closed) through `points`.
    public mutating func path(_ points: [(Double, Double)], closed: Bool, _ style: [(String, String)] = []) {
        guard !points.isEmpty else { return }
        let list = points.map { "\(Self.number($0.0)),\(Self.number($0.1))" }.joined(separator: " ")
        raw("<\(closed ? "polygon" : "polyline") points=\"\(list)\"\(Self.attributes(style))/>")
    }

    /// A circle of radius `r` centred at (cx, cy).
    public mutating func circle(_ cx: Double, _ cy: Double, _ r: Double, _ style: [(String, String)] = []) {
        raw(
            "<circle cx=\"\(Self.number(cx))\" cy=\"\(Self.number(cy))\" r=\"\(Self.number(r))\"\(Self.attributes(style))/>"
        )
    }

    /// An ellipse with semi-axes rx, ry centred at (cx, cy), rotated by `degrees` (clockwise on screen).
    public mutating func ellipse(
        _ cx: Double, _ cy: Double, _ rx: Double, _ ry: Double, degrees: Double,
        _ style: [(String, String)] = []
    ) {
        raw(
            "<ellipse cx=\"\(Self.number(cx))\" cy=\"\(Self.number(cy))\" rx=\"\(Self.number(rx))\" ry=\"\(Self.number(ry))\""
                + " transform=\"rotate(\(Self.number(degrees)) \(Self.number(cx)) \(Self.number(cy)))\"\(Self.attributes(style))/>"
        )
    }

    /// A rectangle with its top-left corner at (x, y).
    public mutating func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double, _ style: [(String, String)] = []) {
        raw(
            "<rect x=\"\(Self.number(x))\" y=\"\(Self.number(y))\" width=\"\(Self.number(w))\" height=\"\(Self.number(h))\"\(Self.attributes(style))/>"
        )
    }

    /// Text with its anchor point at (x, y).
    public mutating func text(_ x: Double, _ y: Double, _ content: String, _ style: [(String, String)] = []) {
        raw(
            "<text x=\"\(Self.number(x))\" y=\"\(Self.number(y))\"\(Self.attributes(style))>\(Self.escaped(content))</text>"
        )
    }

    /// Opens a group (`<g>`); close it with ``endGroup()``.
    public mutating func beginGroup(_ attributes: [(String, String)] = []) { raw("<g\(Self.attributes(attributes))>") }

    /// Closes the group opened last.
    public mutating func endGroup() { raw("</g>") }

    /// The picture's elements without the `<svg>` wrapper (for embedding).
    public var content: String { body.joined(separator: "\n") }

    /// The `<svg>` element, for embedding in HTML (no XML declaration); `id` names it.
    public func element(id: String? = nil) -> String {
        let w = Self.number(width), h = Self.number(height)
        let idAttribute = id.map { " id=\"\(Self.escaped($0))\"" } ?? ""
        return
            "<svg xmlns=\"http://www.w3.org/2000/svg\"\(idAttribute) width=\"\(w)\" height=\"\(h)\" viewBox=\"0 0 \(w) \(h)\""
            + " font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\">\n" + content + "\n</svg>\n"
    }

    /// The whole document (an SVG file).
    public var document: String { "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + element() }
}
