import Evaluation
import Foundation
import PositioningIO

/// A picture of one floor: its outline, zones with their names, beacons labelled with their
/// minor, the estimated track of each device in its own colour, the true track, 1-σ error
/// ellipses every few fixes, region events where they happened, a scale bar in metres and a
/// legend. ``svg()`` gives the SVG document; ``ReplayPage`` builds on the same layers.
public struct PlanPicture: Sendable {
    /// The plan drawn.
    public let plan: FloorPlan
    /// The floor drawn.
    public let floor: Floor
    /// Fixes on this floor per device (devices in ``devices`` order), time-sorted.
    public let fixes: [String: [TrackPoint]]
    /// Truth on this floor per device ("" for a truth without devices), time-sorted.
    public let truth: [String: [TrackPoint]]
    /// Region events (of the drawn devices), time-sorted.
    public let events: [RegionEvent]
    /// Monitored regions drawn on this floor (circles of this level, zones, beacon conditions).
    public let regions: [RegionDefinition]
    /// Devices with fixes, in colour order.
    public let devices: [String]
    /// The devices the legend names and colours (all, or the busiest when there are too many
    /// for ``maximumLegendEntries``; the others are grey under one "others" entry).
    public let namedDevices: [String]
    /// Metres to pixels.
    public let projection: PlanProjection
    /// Every how many fixes an ellipse is drawn.
    public let ellipseEvery: Int
    /// Fixes outside the shown rectangle (far outliers): drawn as a cross at its edge and
    /// counted in the legend, so that one of them does not shrink the floor to a few pixels.
    public let fixesOutsideView: Int

    /// A white outline behind text, so labels stay readable over tracks.
    static let halo = [
        ("stroke", "white"), ("stroke-width", "3"), ("paint-order", "stroke"), ("stroke-linejoin", "round")
    ]

    static let margin = 1.0, titleHeight = 34.0, side = 16.0, legendRowHeight = 20.0

    /// A picture of the floor at `level` (default: the floor with the most fixes, else the
    /// first), of one `device` (default: all).
    /// - Throws: ``EvaluationError/unknownLevel(_:available:)`` when the plan has no such
    ///   floor, ``EvaluationError/unknownDevice(_:available:)`` when no file names the device.
    public init(
        plan: FloorPlan, fixes: TrackTable? = nil, truth: TrackTable? = nil, events: [RegionEvent] = [],
        regions: RegionsFile? = nil, level: Int? = nil, device: String? = nil,
        maximumSize: (width: Double, height: Double) = (820, 640)
    )
        throws(EvaluationError)
    {
        self.plan = plan
        let chosen = level ?? PlanPicture.busiestLevel(plan: plan, fixes: fixes)
        guard let floor = plan.floor(level: chosen) else {
            throw .unknownLevel(chosen, available: plan.floors.map(\.level))
        }
        self.floor = floor
        if let device {
            let known = Set((fixes?.tracks.keys).map(Array.init) ?? []).union(
                (truth?.tracks.keys).map(Array.init) ?? [])
            guard known.contains(device) else {
                throw .unknownDevice(device, available: known.sorted().filter { !$0.isEmpty })
            }
        }
        func onFloor(_ table: TrackTable?, keepAll: Bool) -> [String: [TrackPoint]] {
            guard let table else { return [:] }
            var result: [String: [TrackPoint]] = [:]
            for (name, points) in table.tracks where keepAll || device == nil || name == device {
                let kept = points.filter { $0.floor == nil || $0.floor == chosen }
                if !kept.isEmpty { result[name] = kept }
            }
            return result
        }
        self.fixes = onFloor(fixes, keepAll: false)
        // A truth without devices belongs to every device.
        self.truth = onFloor(truth, keepAll: truth.map { !$0.hasDevices } ?? false)
        let kept = self.fixes
        devices = fixes?.devices.filter { kept[$0] != nil } ?? []
        self.events = events.filter { device == nil || $0.device.isEmpty || $0.device == device }
        self.regions = (regions?.regions ?? []).filter { region in
            switch region.condition {
            case .circle(let circle): return circle.level == chosen
            case .zone(let id): return floor.zones.contains { $0.id == id }
            case .beacon(let condition): return floor.beacons.contains { condition.matches($0.identity) }
            }
        }
        let longest = self.fixes.values.map(\.count).max() ?? 0
        ellipseEvery = max(1, Int((Double(longest) / 15).rounded(.up)))

        // The shown rectangle: everything on the floor, plus a margin.
        var xs: [Double] = [], ys: [Double] = []
        for vertex in (floor.outline?.vertices ?? []) + floor.zones.flatMap(\.polygon.vertices)
            + floor.walls.flatMap({ [$0.from, $0.to] })
        {
            xs.append(vertex.x)
            ys.append(vertex.y)
        }
        for beacon in floor.beacons {
            xs.append(beacon.position.x)
            ys.append(beacon.position.y)
        }
        for region in self.regions {
            if case .circle(let c) = region.condition {
                xs += [c.center.x - c.radius, c.center.x + c.radius]
                ys += [c.center.y - c.radius, c.center.y + c.radius]
            }
        }
        for point in self.truth.values.joined() {
            xs.append(point.x)
            ys.append(point.y)
        }
        // Fixes widen the view by at most half the site's extent on each side (the site: the
        // floor, its regions and the truth); farther ones are outliers, drawn at the edge.
        var outside = 0
        if let x0 = xs.min(), let x1 = xs.max(), let y0 = ys.min(), let y1 = ys.max() {
            let reach = max(max(x1 - x0, y1 - y0) / 2, 5)
            for point in self.fixes.values.joined() {
                if point.x >= x0 - reach, point.x <= x1 + reach, point.y >= y0 - reach, point.y <= y1 + reach {
                    xs.append(point.x)
                    ys.append(point.y)
                } else {
                    outside += 1
                }
            }
        } else {
            for point in self.fixes.values.joined() {
                xs.append(point.x)
                ys.append(point.y)
            }
        }
        fixesOutsideView = outside
        if xs.isEmpty {
            xs = [0, 10]
            ys = [0, 10]
        }
        // Grow the view for the error ellipses drawn, by at most a sixth of the view on each side
        // (a fallback's ellipse of hundreds of metres would otherwise shrink the floor to a dot).
        if let x0 = xs.min(), let x1 = xs.max(), let y0 = ys.min(), let y1 = ys.max() {
            let room = max(x1 - x0, y1 - y0) / 6
            var lo = (x: x0, y: y0), hi = (x: x1, y: y1)
            for points in self.fixes.values {
                for (index, point) in points.enumerated() where index % ellipseEvery == 0 {
                    // An outlier beyond the view (see `fixesOutsideView`) does not widen it either.
                    guard let r = point.ellipse?.semiMajor, r.isFinite,
                        point.x >= x0, point.x <= x1, point.y >= y0, point.y <= y1
                    else { continue }
                    lo = (min(lo.x, max(point.x - r, x0 - room)), min(lo.y, max(point.y - r, y0 - room)))
                    hi = (max(hi.x, min(point.x + r, x1 + room)), max(hi.y, min(point.y + r, y1 + room)))
                }
            }
            xs += [lo.x, hi.x]
            ys += [lo.y, hi.y]
        }
        let reserved = [
            !self.truth.isEmpty, !self.fixes.isEmpty, !floor.beacons.isEmpty, !floor.zones.isEmpty,
            !self.regions.isEmpty, !self.events.isEmpty, outside > 0
        ].filter { $0 }.count
        namedDevices = Self.busiest(devices, fixes: self.fixes, room: Self.maximumLegendEntries - reserved - 1)
        let m = PlanPicture.margin
        projection = PlanProjection(
            minX: xs.min()! - m, minY: ys.min()! - m, maxX: xs.max()! + m, maxY: ys.max()! + m,
            width: maximumSize.width, height: maximumSize.height,
            left: PlanPicture.side, top: PlanPicture.titleHeight)
    }

    /// The level with the most fixes, or the plan's first floor when no fix names a floor.
    static func busiestLevel(plan: FloorPlan, fixes: TrackTable?) -> Int {
        let counts = fixes?.pointsPerFloor ?? [:]
        let best = counts.filter { plan.floor(level: $0.key) != nil }.max {
            $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key
        }
        return best?.key ?? plan.floors[0].level
    }

    /// The colour of a device's track: its own for the devices the legend names, grey for the
    /// others (see ``namedDevices``).
    public func colour(of device: String) -> String {
        guard let index = namedDevices.firstIndex(of: device) else { return Self.othersColour }
        return Palette.series(index)
    }

    /// The most entries the legend has; with many devices, the busiest are named and the rest
    /// share one "others" entry, so that a fingerprint set of thousands of devices still draws a
    /// legend of one or two rows.
    static let maximumLegendEntries = 12
    static let othersColour = "#9A9A9A"

    /// The devices `room` legend entries can name: all of them when they fit (with one entry to
    /// spare for "others"), else the busiest (most fixes; the first on a tie).
    static func busiest(_ devices: [String], fixes: [String: [TrackPoint]], room: Int) -> [String] {
        guard devices.count > room + 1 else { return devices }
        let ranked = devices.enumerated().sorted {
            ((fixes[$0.element]?.count ?? 0), -$0.offset) > ((fixes[$1.element]?.count ?? 0), -$1.offset)
        }
        return ranked.prefix(max(room, 1)).map(\.element)
    }

    /// The picture's title: plan name, floor name and level.
    public var title: String {
        let floorName = floor.name.map { "\($0) (level \(floor.level))" } ?? "level \(floor.level)"
        return plan.name.isEmpty ? floorName : "\(plan.name) — \(floorName)"
    }

    /// Legend entries: (kind, colour, label), at most ``maximumLegendEntries``.
    var legendEntries: [(kind: String, colour: String, label: String)] {
        var entries: [(String, String, String)] = []
        let named = namedDevices
        for device in named {
            entries.append(("track", colour(of: device), device.isEmpty ? "estimated track" : device))
        }
        if named.count < devices.count {
            entries.append(("track", Self.othersColour, "\(devices.count - named.count) other devices"))
        }
        return entries + otherLegendEntries
    }

    /// The legend entries that are not devices.
    private var otherLegendEntries: [(kind: String, colour: String, label: String)] {
        var entries: [(String, String, String)] = []
        if !truth.isEmpty {
            // A track as a dashed line, a point held still as a diamond (both when both occur).
            let moves = truth.values.contains { points in
                zip(points, points.dropFirst()).contains { $0.x != $1.x || $0.y != $1.y }
            }
            if moves { entries.append(("truth", Palette.truth, "true track")) }
            if truth.values.contains(where: { !Self.heldPoints($0).isEmpty }) {
                entries.append(("held", Palette.truth, "true position held still"))
            }
        }
        if !fixes.isEmpty {
            entries.append(
                (
                    "ellipse", devices.count == 1 ? colour(of: devices[0]) : "#777777",
                    "1-σ error ellipse (every \(ellipseEvery == 1 ? "fix" : "\(ellipseEvery) fixes"))"
                ))
        }
        if fixesOutsideView > 0 {
            entries.append(
                (
                    "outside", "#777777",
                    "\(fixesOutsideView) fix\(fixesOutsideView == 1 ? "" : "es") outside the view, drawn at its edge"
                ))
        }
        if !floor.beacons.isEmpty { entries.append(("beacon", Palette.beacon, "beacon (minor)")) }
        if !floor.zones.isEmpty { entries.append(("zone", Palette.zone, "zone")) }
        if !regions.isEmpty { entries.append(("region", Palette.region, "monitored region")) }
        if !events.isEmpty { entries.append(("event", Palette.region, "region event (● enter, ○ exit)")) }
        return entries
    }

    /// Picture size, pixels: the plan, the title above, the scale bar and legend below.
    public var size: (width: Double, height: Double) {
        let width = max(projection.pixelWidth + 2 * Self.side, 420)
        return (width, legendTop + legendHeight(width: width) + 8)
    }

    var legendTop: Double { projection.top + projection.pixelHeight + 44 }

    func legendLayout(width: Double) -> [(x: Double, y: Double)] {
        var x = Self.side, y = legendTop
        var positions: [(Double, Double)] = []
        for entry in legendEntries {
            let w = 34 + Double(entry.label.count) * 6.6 + 18
            if x + w > width - Self.side, x > Self.side {
                x = Self.side
                y += Self.legendRowHeight
            }
            positions.append((x, y))
            x += w
        }
        return positions
    }

    func legendHeight(width: Double) -> Double {
        guard let last = legendLayout(width: width).last else { return 0 }
        return last.y - legendTop + Self.legendRowHeight
    }

    /// The static layers (everything but the tracks): background, title, outline, zones, walls
    /// (thick lines; the gaps between them are doors), beacons, scale bar and legend.
    func drawPlan(into svg: inout SVGDocument) {
        let (width, _) = size
        svg.rect(0, 0, svg.width, svg.height, [("fill", "white")])
        svg.text(Self.side, 22, title, [("font-size", "15"), ("font-weight", "bold")])
        if let outline = floor.outline {
            svg.path(
                outline.vertices.map(projection.pixel), closed: true,
                [("fill", "#f6f6f2"), ("stroke", Palette.outline), ("stroke-width", "2")])
        }
        for zone in floor.zones {
            svg.path(
                zone.polygon.vertices.map(projection.pixel), closed: true,
                [("fill", Palette.zone), ("fill-opacity", "0.25"), ("stroke", Palette.zone), ("stroke-width", "1")])
        }
        for wall in floor.walls {
            let (x1, y1) = projection.pixel(wall.from.x, wall.from.y)
            let (x2, y2) = projection.pixel(wall.to.x, wall.to.y)
            svg.line(
                x1, y1, x2, y2,
                [("stroke", Palette.outline), ("stroke-width", "4"), ("stroke-linecap", "butt"), ("data-wall", "")])
        }
        for beacon in floor.beacons {
            let (x, y) = projection.pixel(beacon.position.x, beacon.position.y)
            svg.path(
                [(x, y - 7), (x + 6, y + 4), (x - 6, y + 4)], closed: true,
                [("fill", Palette.beacon), ("stroke", "white"), ("stroke-width", "1")])
        }
        drawRegions(into: &svg)
        drawScaleBar(into: &svg)
        drawNorth(into: &svg)
        for (entry, position) in zip(legendEntries, legendLayout(width: width)) {
            Self.drawLegendSwatch(entry.kind, entry.colour, x: position.x, y: position.y, into: &svg)
            svg.text(position.x + 32, position.y + 4, entry.label)
        }
    }

    static func drawLegendSwatch(_ kind: String, _ colour: String, x: Double, y: Double, into svg: inout SVGDocument) {
        switch kind {
        case "track": svg.line(x, y, x + 26, y, [("stroke", colour), ("stroke-width", "2.5")])
        case "truth":
            svg.line(x, y, x + 26, y, [("stroke", colour), ("stroke-width", "1.5"), ("stroke-dasharray", "5 3")])
        case "ellipse":
            svg.ellipse(x + 13, y, 12, 6, degrees: 0, [("fill", colour), ("fill-opacity", "0.12"), ("stroke", colour)])
        case "beacon": svg.path([(x + 13, y - 7), (x + 19, y + 4), (x + 7, y + 4)], closed: true, [("fill", colour)])
        case "held":
            svg.path(
                [(x + 13, y - 6), (x + 19, y), (x + 13, y + 6), (x + 7, y)], closed: true,
                [("fill", "white"), ("stroke", colour), ("stroke-width", "1.5")])
        case "outside": drawCross(x + 13, y, colour: colour, into: &svg)
        case "zone": svg.rect(x + 3, y - 6, 20, 12, [("fill", colour), ("fill-opacity", "0.25"), ("stroke", colour)])
        case "region":
            svg.circle(
                x + 13, y, 7, [("fill", "none"), ("stroke", colour), ("stroke-width", "2"), ("stroke-dasharray", "4 2")]
            )
        default: svg.circle(x + 13, y, 5, [("fill", colour)])
        }
    }

    /// A cross of 8 × 8 pixels centred at (x, y): a fix beyond the view, at its edge.
    /// The fix's cross carries `data-outside="1"` (`tagged`), the legend's does not.
    static func drawCross(_ x: Double, _ y: Double, colour: String, tagged: Bool = false, into svg: inout SVGDocument) {
        svg.line(
            x - 4, y - 4, x + 4, y + 4,
            [("stroke", colour), ("stroke-width", "2")] + (tagged ? [("data-outside", "1")] : []))
        svg.line(x - 4, y + 4, x + 4, y - 4, [("stroke", colour), ("stroke-width", "2")])
    }

    /// Monitored regions: circles dashed, zone regions outlined, beacon regions as rings around
    /// the beacons they match (their labels are ``labels``').
    func drawRegions(into svg: inout SVGDocument) {
        let style: [(String, String)] = [
            ("fill", "none"), ("stroke", Palette.region), ("stroke-width", "2"), ("stroke-dasharray", "6 3")
        ]
        for region in regions {
            switch region.condition {
            case .circle(let c):
                let (x, y) = projection.pixel(c.center)
                svg.circle(
                    x, y, c.radius * projection.scale,
                    [("fill", Palette.region), ("fill-opacity", "0.06")] + style.dropFirst())
            case .zone(let id):
                guard let zone = floor.zones.first(where: { $0.id == id }) else { continue }
                svg.path(zone.polygon.vertices.map(projection.pixel), closed: true, style)
            case .beacon:
                for beacon in ringedBeacons(of: region) {
                    let (x, y) = projection.pixel(beacon.position.x, beacon.position.y)
                    svg.circle(x, y - 1, 13, style)
                }
            }
        }
    }

    /// The beacons a beacon region is drawn around: those it matches, when at most three (a
    /// wildcard matching many beacons is not ringed).
    func ringedBeacons(of region: RegionDefinition) -> [Beacon] {
        guard case .beacon(let condition) = region.condition else { return [] }
        let matching = floor.beacons.filter { condition.matches($0.identity) }
        return matching.count <= 3 ? matching : []
    }

    /// One label of the picture: text, the spot asked for (pixels), its anchor and style.
    struct Label {
        var text: String
        var x: Double
        var y: Double
        var anchor: LabelPlacer.Anchor
        var fontSize: Double
        var style: [(String, String)]
    }

    /// Every label of the plan layer and, with `events`, of the region events: zone names,
    /// beacon identities, region ids, event labels, in that order of priority.
    func labels(events withEvents: Bool) -> [Label] {
        var labels: [Label] = []
        for zone in floor.zones {
            let (cx, cy) = projection.pixel(Self.centroid(zone.polygon))
            labels.append(
                Label(
                    text: zone.name ?? zone.id, x: cx, y: cy, anchor: .middle, fontSize: 13,
                    style: [("fill", "#2F5D8A"), ("font-style", "italic")]))
        }
        let minors = floor.beacons.map(\.identity.minor)
        let ambiguous = Set(minors).count < minors.count
        for beacon in floor.beacons {
            let (x, y) = projection.pixel(beacon.position.x, beacon.position.y)
            let text = ambiguous ? "\(beacon.identity.major):\(beacon.identity.minor)" : "\(beacon.identity.minor)"
            labels.append(
                Label(
                    text: text, x: x + 8, y: y - 5, anchor: .start, fontSize: 11,
                    style: [("fill", Palette.beacon), ("font-weight", "bold")]))
        }
        let regionStyle: [(String, String)] = [("fill", "#8B6508"), ("font-weight", "bold")]
        for region in regions {
            switch region.condition {
            case .circle(let c):
                let (x, y) = projection.pixel(c.center)
                labels.append(
                    Label(
                        text: region.id, x: x, y: y - c.radius * projection.scale - 4, anchor: .middle, fontSize: 12,
                        style: regionStyle))
            case .zone(let id):
                guard let zone = floor.zones.first(where: { $0.id == id }), region.id != zone.id, region.id != zone.name
                else { continue }
                let (x, y) = projection.pixel(Self.centroid(zone.polygon))
                labels.append(
                    Label(text: region.id, x: x, y: y + 16, anchor: .middle, fontSize: 12, style: regionStyle))
            case .beacon:
                for beacon in ringedBeacons(of: region) {
                    let (x, y) = projection.pixel(beacon.position.x, beacon.position.y)
                    labels.append(
                        Label(text: region.id, x: x - 16, y: y + 4, anchor: .end, fontSize: 12, style: regionStyle))
                }
            }
        }
        guard withEvents else { return labels }
        for event in events {
            guard let (x, y) = location(of: event.device, at: event.timestamp) ?? anchor(of: event.region) else {
                continue
            }
            let entered = event.state == .satisfied
            labels.append(
                Label(
                    text: (entered ? "→ " : "← ") + event.region + (event.flag.map { " (\($0))" } ?? ""),
                    x: x + 7, y: y + 14, anchor: .start, fontSize: 11, style: [("fill", "#8B6508")]))
        }
        return labels
    }

    /// The labels over everything else (tracks and ellipses included), each moved off the
    /// labels placed before it (``LabelPlacer``).
    func drawLabels(events: Bool, into svg: inout SVGDocument) {
        var placer = LabelPlacer()
        for label in labels(events: events) {
            let spot = placer.place(label.text, x: label.x, y: label.y, fontSize: label.fontSize, anchor: label.anchor)
            let anchor: [(String, String)] = label.anchor == .start ? [] : [("text-anchor", label.anchor.rawValue)]
            svg.text(
                spot.x, spot.y, label.text,
                anchor + label.style + [("font-size", SVGDocument.number(label.fontSize))] + Self.halo)
        }
    }

    /// Where a region's events are drawn when the device's position is unknown: a circle's
    /// centre, a zone's centroid, a single beacon's position.
    func anchor(of region: String) -> (Double, Double)? {
        guard let definition = regions.first(where: { $0.id == region }) else { return nil }
        switch definition.condition {
        case .circle(let c): return projection.pixel(c.center)
        case .zone(let id): return floor.zones.first { $0.id == id }.map { projection.pixel(Self.centroid($0.polygon)) }
        case .beacon(let condition):
            let matching = floor.beacons.filter { condition.matches($0.identity) }
            return matching.count == 1 ? projection.pixel(matching[0].position.x, matching[0].position.y) : nil
        }
    }

    /// A scale bar of a round length (about a fifth of the plan's width) under the plan.
    func drawScaleBar(into svg: inout SVGDocument) {
        let metres = Self.roundLength((projection.maxX - projection.minX) / 5)
        let length = metres * projection.scale
        let x = Self.side, y = projection.top + projection.pixelHeight + 18
        svg.line(x, y, x + length, y, [("stroke", "black"), ("stroke-width", "2")])
        for tickX in [x, x + length / 2, x + length] {
            svg.line(tickX, y - 5, tickX, y + 1, [("stroke", "black"), ("stroke-width", "1.5")])
        }
        svg.text(x + length + 6, y + 4, "\(SVGDocument.number(metres)) m")
    }

    func drawNorth(into svg: inout SVGDocument) {
        let x = projection.left + projection.pixelWidth - 12, y = projection.top + projection.pixelHeight + 24
        svg.path([(x, y - 16), (x + 5, y - 4), (x - 5, y - 4)], closed: true, [("fill", "#555")])
        svg.text(x, y + 8, "y", [("text-anchor", "middle"), ("font-size", "10"), ("fill", "#555")])
    }

    /// 1, 2 or 5 × 10^k metres at or below `value`.
    static func roundLength(_ value: Double) -> Double {
        let magnitude = pow(10, Foundation.floor(log10(max(value, 1e-3))))
        for factor in [5.0, 2, 1] where factor * magnitude <= value { return factor * magnitude }
        return magnitude
    }

    /// The area centroid of a simple polygon (the vertex mean when it has no area).
    static func centroid(_ polygon: Polygon) -> Point2D {
        let area = polygon.signedArea
        let vertices = polygon.vertices
        guard abs(area) > 1e-9 else {
            let n = Double(max(vertices.count, 1))
            return Point2D(x: vertices.reduce(0) { $0 + $1.x } / n, y: vertices.reduce(0) { $0 + $1.y } / n)
        }
        var cx = 0.0, cy = 0.0
        for (a, b) in polygon.edges {
            let cross = a.x * b.y - b.x * a.y
            cx += (a.x + b.x) * cross
            cy += (a.y + b.y) * cross
        }
        return Point2D(x: cx / (6 * area), y: cy / (6 * area))
    }

    /// The points of a truth track that are held still, each place once, in order: a track
    /// of one row, a row marked static, or a row followed by one at the same place.
    static func heldPoints(_ points: [TrackPoint]) -> [TrackPoint] {
        var seen = Set<String>()
        var held: [TrackPoint] = []
        for (index, point) in points.enumerated() {
            let alone =
                points.count == 1 || point.isStatic
                || (index + 1 < points.count && points[index + 1].x == point.x && points[index + 1].y == point.y)
            if alone, seen.insert("\(point.x),\(point.y)").inserted { held.append(point) }
        }
        return held
    }

    /// The polyline pixels of a track, split where consecutive points are more than `gap`
    /// seconds apart.
    func segments(_ points: [TrackPoint], gap: Double = 10) -> [[(Double, Double)]] {
        var result: [[(Double, Double)]] = []
        var current: [(Double, Double)] = []
        var last: Double?
        for point in points {
            if let last, point.timestamp - last > gap, !current.isEmpty {
                result.append(current)
                current = []
            }
            current.append(projection.pixel(point.x, point.y))
            last = point.timestamp
        }
        if !current.isEmpty { result.append(current) }
        return result
    }

    /// An ellipse in pixels for a fix: semi-axes scaled, rotation in screen degrees (the plan's
    /// counter-clockwise angle becomes clockwise on screen, y being flipped).
    func ellipsePixels(_ point: TrackPoint) -> (cx: Double, cy: Double, rx: Double, ry: Double, degrees: Double)? {
        guard let ellipse = point.ellipse else { return nil }
        let (cx, cy) = projection.pixel(point.x, point.y)
        return (
            cx, cy, ellipse.semiMajor * projection.scale, ellipse.semiMinor * projection.scale,
            -ellipse.orientation * 180 / Double.pi
        )
    }

    /// Where a device was at `time`: on its fixes, else on its truth (clamped to the track's ends).
    func location(of device: String, at time: Double) -> (Double, Double)? {
        let track =
            fixes[device] ?? (devices.count == 1 && device.isEmpty ? fixes[devices[0]] : nil)
            ?? truth[device] ?? truth[""]
        guard let track, !track.isEmpty else { return nil }
        let at = TruthTrack(points: track).position(at: time)
        return projection.pixel(at.x, at.y)
    }

    /// The tracks, ellipses and events.
    func drawTracks(into svg: inout SVGDocument) {
        // Clip to the plan area, so that a large ellipse does not cover the title or legend.
        let p = projection
        svg.raw(
            "<defs><clipPath id=\"plan-area\"><rect x=\"\(SVGDocument.number(p.left))\" y=\"\(SVGDocument.number(p.top))\""
                + " width=\"\(SVGDocument.number(p.pixelWidth))\" height=\"\(SVGDocument.number(p.pixelHeight))\"/></clipPath></defs>"
        )
        svg.beginGroup([("clip-path", "url(#plan-area)")])
        defer { svg.endGroup() }
        for (name, points) in truth.sorted(by: { $0.key < $1.key }) where !points.isEmpty {
            // Each device's truth in its track's colour when there are several; dashed.
            let stroke = devices.count > 1 && !name.isEmpty ? colour(of: name) : Palette.truth
            for segment in segments(points) {
                svg.path(
                    segment, closed: false,
                    [
                        ("fill", "none"), ("stroke", stroke), ("stroke-width", "1.5"),
                        ("stroke-dasharray", "5 3"), ("stroke-opacity", "0.8"),
                        ("data-device", name)
                    ])
            }
            // A point held still (a survey point, a static row, or a track of one row) is a
            // diamond: a polyline of one point would not show.
            for point in Self.heldPoints(points) {
                let (x, y) = projection.pixel(point.x, point.y)
                svg.path(
                    [(x, y - 6), (x + 6, y), (x, y + 6), (x - 6, y)], closed: true,
                    [("fill", "white"), ("stroke", stroke), ("stroke-width", "1.5"), ("data-truth-point", name)])
            }
        }
        for device in devices {
            guard let points = fixes[device] else { continue }
            let colour = colour(of: device)
            for (index, point) in points.enumerated() where index % ellipseEvery == 0 {
                if let e = ellipsePixels(point) {
                    svg.ellipse(
                        e.cx, e.cy, e.rx, e.ry, degrees: e.degrees,
                        [("fill", colour), ("fill-opacity", "0.07"), ("stroke", colour), ("stroke-opacity", "0.5")])
                }
            }
            for segment in segments(points) {
                svg.path(
                    segment, closed: false,
                    [
                        ("fill", "none"), ("stroke", colour), ("stroke-width", "2"),
                        ("stroke-linejoin", "round")
                    ])
            }
            for point in points {
                let (x, y) = projection.pixel(point.x, point.y)
                if point.x < p.minX || point.x > p.maxX || point.y < p.minY || point.y > p.maxY {
                    // An outlier beyond the view: a cross at the nearest point of its edge.
                    let cx = min(max(x, p.left + 5), p.left + p.pixelWidth - 5)
                    let cy = min(max(y, p.top + 5), p.top + p.pixelHeight - 5)
                    Self.drawCross(cx, cy, colour: colour, tagged: true, into: &svg)
                } else {
                    svg.circle(x, y, 1.8, [("fill", colour)])
                }
            }
        }
        for event in events {
            guard let (x, y) = location(of: event.device, at: event.timestamp) ?? anchor(of: event.region) else {
                continue
            }
            let entered = event.state == .satisfied
            svg.circle(
                x, y, 5,
                [("fill", entered ? Palette.region : "white"), ("stroke", Palette.region), ("stroke-width", "2")])
        }
    }

    /// The picture as an SVG document.
    public func svg() -> String {
        let (width, height) = size
        var svg = SVGDocument(width: width, height: height)
        drawPlan(into: &svg)
        drawTracks(into: &svg)
        drawLabels(events: true, into: &svg)
        return svg.document
    }
}
