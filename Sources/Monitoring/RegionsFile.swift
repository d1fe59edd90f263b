import BeaconModel
import Foundation
import StrictJSON

/// One region of a regions file: an identifier, a condition, an optional parent and optional
/// hysteresis of its own.
public struct RegionDefinition: Sendable, Hashable, Codable {
    /// Unique identifier (the `region` column of events).
    public var id: String
    /// What the region is.
    public var condition: MonitorCondition
    /// The region this one is nested in, if any.
    public var parent: String?
    /// The region's own hysteresis; nil: the monitor's.
    public var hysteresis: Hysteresis?

    public init(id: String, condition: MonitorCondition, parent: String? = nil, hysteresis: Hysteresis? = nil) {
        self.id = id
        self.condition = condition
        self.parent = parent
        self.hysteresis = hysteresis
    }
}

/// The regions JSON of `FORMATS.md`:
///
/// ```json
/// { "regions": [
///     { "id": "site",    "beacon": { "uuid": "F7826DA6-4FA2-4E98-8024-BC5B71E0893E" } },
///     { "id": "printer", "circle": { "x": 12.0, "y": 4.0, "radius": 2.5, "level": 0 } },
///     { "id": "lobby",   "zone": "lobby", "parent": "site", "hysteresis": { "exitDwell": 8 } } ] }
/// ```
///
/// Each region has an `id` and exactly one of `beacon` (`uuid`, optional `major`, optional
/// `minor`; a `minor` needs a `major`), `circle` (`x`, `y`, `radius` metres, `level` default 0)
/// and `zone` (a zone id of the plan). `parent` names another region; `hysteresis` may set any
/// of `enterCount`, `enterWindow`, `enterRSSI`, `exitRSSI`, `exitDelay`, `enterMargin`,
/// `exitMargin`, `exitDwell`, `accuracyWeight`, `maximumAccuracy` (units as in ``Hysteresis``),
/// the rest coming from the defaults given to the reader. A key close to one of these
/// (`"enterRssi"`, `"enter_rssi"`, `"hysterisis"`) is an error that names the key meant; other
/// unknown keys are annotations and are ignored.
public struct RegionsFile: Sendable, Hashable {
    /// The regions, in file order.
    public var regions: [RegionDefinition]

    /// The regions, checked against each other.
    public init(regions: [RegionDefinition]) { self.regions = regions }

    /// Reads and validates a regions file against `plan`.
    /// - Parameter defaults: the hysteresis that a region's `hysteresis` object amends.
    /// - Throws: ``MonitorError`` naming the JSON path and the value: malformed JSON, a missing
    ///   or mistyped key, NaN or infinity, a bad UUID, an identity value out of 0…65535, an unknown
    ///   zone id, a non-positive radius, a duplicate id, a missing parent, a cycle of parents, a
    ///   hysteresis value out of range.
    public init(jsonData: Data, plan: FloorPlan, defaults: Hysteresis = Hysteresis()) throws(MonitorError) {
        let zones = ZoneIndex(plan: plan)
        var regions: [RegionDefinition] = []
        var firstPath: [String: String] = [:]
        var parentPaths: [String: String] = [:]
        do {
            let top = try JSONElement.parse(jsonData).object()
            try top.rejectMisspelledKeys(known: ["regions"])
            for node in try top.required("regions").array() {
                let object = try node.object()
                try object.rejectMisspelledKeys(known: ["id", "beacon", "circle", "zone", "parent", "hysteresis"])
                let idNode = try object.required("id")
                let id = try idNode.string()
                guard !id.isEmpty else { throw MonitorError.emptyIdentifier(path: idNode.path) }
                if let first = firstPath[id] {
                    throw MonitorError.duplicateIdentifier(path: idNode.path, id: id, firstPath: first)
                }
                firstPath[id] = idNode.path
                let condition = try Self.condition(object, id: id, path: node.path, zones: zones)
                var hysteresis: Hysteresis?
                if let h = object.optional("hysteresis") { hysteresis = try Self.hysteresis(h, defaults: defaults) }
                var parent: String?
                if let p = object.optional("parent") {
                    parent = try p.string()
                    parentPaths[id] = p.path
                }
                regions.append(RegionDefinition(id: id, condition: condition, parent: parent, hysteresis: hysteresis))
            }
        } catch let error as JSONError {
            throw .json(error)
        } catch let error as MonitorError {
            throw error
        } catch {
            throw .json(.malformedJSON(detail: "\(error)"))
        }
        let byID = Dictionary(uniqueKeysWithValues: regions.map { ($0.id, $0) })
        for region in regions {
            guard let parent = region.parent else { continue }
            let path = parentPaths[region.id] ?? region.id
            guard byID[parent] != nil else { throw .missingParent(path: path, parent: parent) }
            var chain = [region.id]
            var next: String? = parent
            while let current = next, chain.count <= regions.count {
                chain.append(current)
                if current == region.id { throw .parentCycle(path: path, cycle: chain) }
                next = byID[current]?.parent
            }
        }
        self.regions = regions
    }

    /// The largest regions file ``load(path:plan:defaults:)`` reads, bytes (16 MiB).
    public static let maximumFileSize = 16 << 20

    /// Reads and validates the regions file at `path` against `plan`.
    /// - Throws: ``MonitorError/io(path:detail:)`` when the file cannot be read, otherwise as
    ///   ``init(jsonData:plan:defaults:)``.
    public static func load(
        path: String, plan: FloorPlan, defaults: Hysteresis = Hysteresis()
    ) throws(MonitorError) -> RegionsFile {
        let data: Data
        do {
            data = try SmallFile.read(path: path, limit: maximumFileSize)
        } catch {
            switch error {
            case .missing: throw .io(path: path, detail: "no such file; check the regions path")
            case .directory: throw .io(path: path, detail: "is a directory, not a regions JSON file")
            case .unopenable: throw .io(path: path, detail: "cannot be opened; check its permissions")
            case .unreadable(let reason):
                throw .io(path: path, detail: "cannot be read (\(reason)); check its permissions")
            case .tooLarge(let limit):
                throw .io(path: path, detail: "is larger than \(limit >> 20) MiB; check that this is the regions file")
            }
        }
        return try RegionsFile(jsonData: data, plan: plan, defaults: defaults)
    }

    // MARK: Decoding

    private static func condition(
        _ object: JSONMembers, id: String, path: String, zones: ZoneIndex
    ) throws -> MonitorCondition {
        let beacon = object.optional("beacon"), circle = object.optional("circle"), zone = object.optional("zone")
        let found = [beacon, circle, zone].compactMap { $0 }.count
        guard found == 1 else { throw MonitorError.conditionCount(path: path, found: found) }
        if let beacon {
            let b = try beacon.object()
            try b.rejectMisspelledKeys(known: ["uuid", "major", "minor"])
            let uuid = try b.required("uuid").uuid()
            let range = Int(UInt16.min)...Int(UInt16.max)
            let major = try b.optional("major").map { node throws(JSONError) in UInt16(try node.integer(in: range)) }
            let minor = try b.optional("minor").map { node throws(JSONError) in UInt16(try node.integer(in: range)) }
            switch (major, minor) {
            case (nil, nil): return .beacon(BeaconCondition(uuid: uuid))
            case (let major?, nil): return .beacon(BeaconCondition(uuid: uuid, major: major))
            case (let major?, let minor?): return .beacon(BeaconCondition(uuid: uuid, major: major, minor: minor))
            case (nil, _?): throw JSONError.missingKey(path: "\(beacon.path).major")
            }
        }
        if let circle {
            let c = try circle.object()
            try c.rejectMisspelledKeys(known: ["x", "y", "radius", "level"])
            let x = try c.required("x").double(), y = try c.required("y").double()
            let radiusNode = try c.required("radius")
            let radius = try radiusNode.double()
            guard radius > 0 else { throw MonitorError.invalidRadius(path: radiusNode.path, value: radiusNode.literal) }
            let levelNode = c.optional("level")
            let level = try levelNode?.integer(in: FloorPlan.levelRange) ?? 0
            // A circle on a floor the plan lacks could never be entered.
            guard zones.hasLevel(level) else {
                throw MonitorError.unknownLevel(
                    path: levelNode?.path ?? "\(circle.path).level", id: id, level: level, levels: zones.levels)
            }
            return .circle(CircleCondition(center: Point2D(x: x, y: y), radius: radius, level: level))
        }
        let zoneNode = zone!
        let id = try zoneNode.string()
        guard zones.contains(id) else { throw MonitorError.unknownZone(path: zoneNode.path, id: id) }
        return .zone(id)
    }

    /// The keys of a region's `hysteresis` object.
    static let hysteresisKeys = [
        "enterCount", "enterWindow", "enterRSSI", "exitRSSI", "exitDelay", "enterMargin", "exitMargin", "exitDwell",
        "accuracyWeight", "maximumAccuracy"
    ]

    private static func hysteresis(_ node: JSONElement, defaults: Hysteresis) throws -> Hysteresis {
        let h = try node.object()
        try h.rejectMisspelledKeys(known: Self.hysteresisKeys)
        var result = defaults
        func number(_ key: String, _ range: ClosedRange<Double>, unit: String) throws -> Double? {
            try h.optional(key)?.double(in: range, unit: unit)
        }
        if let n = try h.optional("enterCount")?.integer(in: 1...1000) { result.beacon.enterCount = n }
        if let v = try number("enterWindow", 0...86_400, unit: "s") { result.beacon.enterWindow = v }
        if let v = try number("enterRSSI", -200...20, unit: "dBm") { result.beacon.enterRSSI = v }
        if let v = try number("exitRSSI", -200...20, unit: "dBm") { result.beacon.exitRSSI = v }
        if let v = try number("exitDelay", 0.001...86_400, unit: "s") { result.beacon.exitDelay = v }
        if let v = try number("enterMargin", 0...1000, unit: "m") { result.position.enterMargin = v }
        if let v = try number("exitMargin", 0...1000, unit: "m") { result.position.exitMargin = v }
        if let v = try number("exitDwell", 0...86_400, unit: "s") { result.position.exitDwell = v }
        if let v = try number("accuracyWeight", 0...100, unit: "") { result.position.accuracyWeight = v }
        if let v = try number("maximumAccuracy", 0.001...10_000, unit: "m") { result.position.maximumAccuracy = v }
        if let problem = result.problem { throw MonitorError.invalidHysteresis(path: node.path, detail: problem) }
        return result
    }
}

extension RegionMonitor {
    /// Adds every region of `file`, parents before their children.
    /// - Throws: ``MonitorError`` as ``add(_:identifier:assuming:parent:hysteresis:)``.
    public mutating func add(_ file: RegionsFile, assuming state: MonitorState = .unknown) throws(MonitorError) {
        var added: Set<String> = []
        let inFile = Set(file.regions.map(\.id))
        var remaining = file.regions
        while !remaining.isEmpty {
            let before = remaining.count
            var next: [RegionDefinition] = []
            for region in remaining {
                if let parent = region.parent, !added.contains(parent),
                    entries[parent] == nil || inFile.contains(parent)
                {
                    next.append(region)
                    continue
                }
                try add(
                    region.condition, identifier: region.id, assuming: state, parent: region.parent,
                    hysteresis: region.hysteresis)
                added.insert(region.id)
            }
            remaining = next
            if remaining.count == before, let first = remaining.first {
                throw .missingParent(path: first.id, parent: first.parent ?? "")
            }
        }
    }
}
