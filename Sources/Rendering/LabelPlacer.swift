/// Places text labels on a picture so that none covers another: a label keeps the spot asked
/// for when it is free, else takes the nearest free spot found by moving it down and up by its
/// line height (up to six lines either way; when all are taken it keeps the spot asked for).
/// Label boxes are estimated from the character count (0.6 em per character, 1 em high), which
/// is close for the sans-serif fonts SVG viewers use at 10–15 px.
struct LabelPlacer {
    /// Where a label's x lies on its box (SVG `text-anchor`).
    enum Anchor: String {
        case start, middle, end
    }

    private var boxes: [(x0: Double, y0: Double, x1: Double, y1: Double)] = []

    /// The spot for `text` asked at (x, y) (the text's baseline; pixels), now taken.
    mutating func place(
        _ text: String, x: Double, y: Double, fontSize: Double, anchor: Anchor = .start
    ) -> (
        x: Double, y: Double
    ) {
        let width = Double(text.count) * fontSize * 0.6
        let x0: Double
        switch anchor {
        case .start: x0 = x
        case .middle: x0 = x - width / 2
        case .end: x0 = x - width
        }
        let line = fontSize * 1.15
        for step in [0, 1, -1, 2, -2, 3, -3, 4, -4, 5, -5, 6, -6] {
            let baseline = y + Double(step) * line
            let box = (x0: x0, y0: baseline - fontSize, x1: x0 + width, y1: baseline + fontSize * 0.25)
            if !boxes.contains(where: { Self.overlap($0, box) }) {
                boxes.append(box)
                return (x, baseline)
            }
        }
        boxes.append((x0, y - fontSize, x0 + width, y + fontSize * 0.25))
        return (x, y)
    }

    private static func overlap(
        _ a: (x0: Double, y0: Double, x1: Double, y1: Double), _ b: (x0: Double, y0: Double, x1: Double, y1: Double)
    ) -> Bool {
        a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1
    }
}
