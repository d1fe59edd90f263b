import Foundation
import StrictJSON

/// Reading and writing the floor-plan JSON format of `FORMATS.md`.
///
/// Reading is strict about what it understands and lenient about what it does not: unknown keys
/// are ignored as annotations unless they look like a misspelled known key, optional keys may be left out or `null`, and anything wrong is a
/// ``FloorPlanError`` that names the JSON path and the value as written, for example
/// `floors[1].beacons[3].major: 70000 is out of range 0...65535`.
///
/// Writing is stable: sorted keys, two-space indentation, numbers in Swift's shortest
/// round-trip form, so `FloorPlan(jsonData: plan.jsonData()) == plan` and saving twice gives
/// identical bytes. Beacon values left out (nil `measuredPower` or `pathLossExponent`) stay
/// left out; everything else is written in full, with its default filled in.
extension FloorPlan {
    /// Integer range accepted for a floor's `level`.
    public static let levelRange: ClosedRange<Int> = Int(Int32.min)...Int(Int32.max)

    /// Reads a plan from JSON (UTF-8) and validates it.
    ///
    /// Keys: `formatVersion` (integer, missing means 1, newer than
    /// ``currentFormatVersion`` is an error), `name` (string, default empty), `defaults`
    /// (`measuredPower` dBm, `pathLossExponent`, `receiverHeight` metres, `wallAttenuation` dB,
    /// each optional with the ``PlanDefaults`` defaults), `floors` (required array) with `level`
    /// (required integer), `name`, `elevation` (metres, default 0), `outline`, `zones` (`id`,
    /// `name`, `polygon`), `walls` (`from`, `to` as `[x, y]` metres, `attenuation` dB optional) and
    /// `beacons` (`uuid`, `major`, `minor`, `x`, `y` required; `z` metres above the floor,
    /// default 0; `measuredPower` dBm and `pathLossExponent` optional), and the optional
    /// `georeference` (`latitude`, `longitude` in degrees WGS 84 required, `bearing` of the
    /// plan's +y axis in degrees clockwise from north, default 0; see ``Georeference``). The
    /// uuid is case-insensitive. Unknown keys are ignored as annotations (`"note"`,
    /// `"comment"`), except a key close to a known one (`"beacon"`, `"measured_power"`), which is
    /// ``FloorPlanError/misspelledKey(path:key:suggestion:)``.
    /// - Throws: ``FloorPlanError`` naming the first problem, its JSON path and its value.
    public init(jsonData: Data) throws(FloorPlanError) {
        let root = try PlanNode.parse(jsonData)
        let top = try root.object()
        try top.rejectMisspelledKeys(known: ["formatVersion", "name", "defaults", "floors", "georeference"])

        if let versionNode = top.optional("formatVersion") {
            let version = try versionNode.integer(in: Int(Int32.min)...Int(Int32.max))
            if version < 1 {
                throw .outOfRange(
                    path: versionNode.path, value: versionNode.literal,
                    range: "1...\(FloorPlan.currentFormatVersion)")
            }
            if version > FloorPlan.currentFormatVersion {
                throw .unsupportedFormatVersion(path: versionNode.path, version: version)
            }
        }
        let name = try top.optional("name")?.string() ?? ""
        var defaults = PlanDefaults()
        if let node = top.optional("defaults") { defaults = try FloorPlan.decodeDefaults(node) }
        var floors: [Floor] = []
        for node in try top.required("floors").array() {
            floors.append(try FloorPlan.decodeFloor(node))
        }
        let georeference = try top.optional("georeference").map(FloorPlan.decodeGeoreference)
        try self.init(name: name, defaults: defaults, floors: floors, georeference: georeference)
    }

    /// The largest plan file ``load(path:)`` reads, bytes (16 MiB).
    public static let maximumFileSize = 16 << 20

    /// Reads and validates the plan in the file at `path` (a regular file or a pipe such as
    /// `/dev/stdin`, at most ``maximumFileSize`` bytes).
    /// - Throws: ``FloorPlanError/io(path:detail:)`` when the file cannot be read, otherwise as
    ///   ``init(jsonData:)``.
    public static func load(path: String) throws(FloorPlanError) -> FloorPlan {
        let data: Data
        do {
            data = try SmallFile.read(path: path, limit: FloorPlan.maximumFileSize)
        } catch {
            switch error {
            case .missing: throw .io(path: path, detail: "no such file; check the floor-plan path")
            case .directory: throw .io(path: path, detail: "is a directory, not a floor-plan JSON file")
            case .unopenable: throw .io(path: path, detail: "cannot be opened; check its permissions")
            case .unreadable(let reason):
                throw .io(path: path, detail: "cannot be read (\(reason)); check its permissions")
            case .tooLarge(let limit):
                throw .io(
                    path: path,
                    detail: "is larger than \(limit >> 20) MiB; "
                        + "a floor plan is a few kilobytes, check that this is the plan file")
            }
        }
        return try FloorPlan(jsonData: data)
    }

    /// The plan as pretty, stable JSON (UTF-8, sorted keys, final newline).
    public func jsonData() -> Data {
        Data(JSONWriter.write(jsonValue))
    }

    /// Writes ``jsonData()`` to `path` atomically (a temporary file renamed into place), so a
    /// failed save never leaves a partial file.
    /// - Throws: ``FloorPlanError/io(path:detail:)`` when the file cannot be written.
    public func save(to path: String) throws(FloorPlanError) {
        do {
            try jsonData().write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw .io(
                path: path,
                detail: "cannot be written (\(FloorPlan.reason(error))); check that the folder exists and is writable")
        }
    }

    // MARK: - Decoding

    private static func decodeDefaults(_ node: PlanNode) throws(FloorPlanError) -> PlanDefaults {
        let object = try node.object()
        try object.rejectMisspelledKeys(known: [
            "measuredPower", "pathLossExponent", "receiverHeight", "wallAttenuation"
        ])
        var defaults = PlanDefaults()
        if let n = object.optional("measuredPower") {
            defaults.measuredPower = try n.double(in: measuredPowerRange, unit: "dBm")
        }
        if let n = object.optional("pathLossExponent") {
            defaults.pathLossExponent = try n.double(in: pathLossExponentRange)
        }
        if let n = object.optional("receiverHeight") { defaults.receiverHeight = try n.double() }
        if let n = object.optional("wallAttenuation") {
            defaults.wallAttenuation = try n.double(in: wallAttenuationRange, unit: "dB")
        }
        return defaults
    }

    private static func decodeGeoreference(_ node: PlanNode) throws(FloorPlanError) -> Georeference {
        let object = try node.object()
        try object.rejectMisspelledKeys(known: ["latitude", "longitude", "bearing"])
        return Georeference(
            latitude: try object.required("latitude").double(in: Georeference.latitudeRange, unit: "degrees"),
            longitude: try object.required("longitude").double(in: Georeference.longitudeRange, unit: "degrees"),
            bearing: try object.optional("bearing")?.double(in: Georeference.bearingRange, unit: "degrees") ?? 0)
    }

    private static func decodeFloor(_ node: PlanNode) throws(FloorPlanError) -> Floor {
        let object = try node.object()
        try object.rejectMisspelledKeys(known: ["level", "name", "elevation", "outline", "zones", "walls", "beacons"])
        let level = try object.required("level").integer(in: levelRange)
        let name = try object.optional("name")?.string()
        let elevation = try object.optional("elevation")?.double() ?? 0
        let outline = try object.optional("outline")?.polygon()
        var zones: [Zone] = []
        for zoneNode in try object.optional("zones")?.array() ?? [] {
            let zone = try zoneNode.object()
            try zone.rejectMisspelledKeys(known: ["id", "name", "polygon"])
            zones.append(
                Zone(
                    id: try zone.required("id").string(),
                    name: try zone.optional("name")?.string(),
                    polygon: try zone.required("polygon").polygon()))
        }
        var walls: [Wall] = []
        for wallNode in try object.optional("walls")?.array() ?? [] {
            let wall = try wallNode.object()
            try wall.rejectMisspelledKeys(known: ["from", "to", "attenuation"])
            walls.append(
                Wall(
                    from: try wall.required("from").point(),
                    to: try wall.required("to").point(),
                    attenuation: try wall.optional("attenuation")?.double(in: wallAttenuationRange, unit: "dB")))
        }
        var beacons: [Beacon] = []
        for beaconNode in try object.optional("beacons")?.array() ?? [] {
            beacons.append(try decodeBeacon(beaconNode))
        }
        return Floor(
            level: level, name: name, elevation: elevation, outline: outline,
            zones: zones, beacons: beacons, walls: walls)
    }

    private static func decodeBeacon(_ node: PlanNode) throws(FloorPlanError) -> Beacon {
        let object = try node.object()
        try object.rejectMisspelledKeys(known: [
            "uuid", "major", "minor", "x", "y", "z", "measuredPower", "pathLossExponent"
        ])
        let identityRange = Int(UInt16.min)...Int(UInt16.max)
        let identity = BeaconIdentity(
            uuid: try object.required("uuid").uuid(),
            major: UInt16(try object.required("major").integer(in: identityRange)),
            minor: UInt16(try object.required("minor").integer(in: identityRange)))
        let position = Point3D(
            x: try object.required("x").double(),
            y: try object.required("y").double(),
            z: try object.optional("z")?.double() ?? 0)
        return Beacon(
            identity: identity, position: position,
            measuredPower: try object.optional("measuredPower")?.double(in: measuredPowerRange, unit: "dBm"),
            pathLossExponent: try object.optional("pathLossExponent")?.double(in: pathLossExponentRange))
    }

    // MARK: - Encoding

    /// The plan as a JSON value in the file format.
    var jsonValue: JSONValue {
        var defaultsMembers: [(key: String, value: JSONValue)] = [
            ("measuredPower", .number(defaults.measuredPower)),
            ("pathLossExponent", .number(defaults.pathLossExponent)),
            ("receiverHeight", .number(defaults.receiverHeight))
        ]
        if let loss = defaults.wallAttenuation { defaultsMembers.append(("wallAttenuation", .number(loss))) }
        var members: [(key: String, value: JSONValue)] = [
            ("formatVersion", .number(FloorPlan.currentFormatVersion)),
            ("name", .string(name)),
            ("defaults", .object(defaultsMembers)),
            ("floors", .array(floors.map(FloorPlan.jsonValue(of:))))
        ]
        if let georeference {
            members.append(
                (
                    "georeference",
                    .object([
                        ("latitude", .number(georeference.latitude)),
                        ("longitude", .number(georeference.longitude)),
                        ("bearing", .number(georeference.bearing))
                    ])
                ))
        }
        return .object(members)
    }

    private static func jsonValue(of floor: Floor) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = [
            ("level", .number(floor.level)),
            ("elevation", .number(floor.elevation))
        ]
        if let name = floor.name { members.append(("name", .string(name))) }
        if let outline = floor.outline { members.append(("outline", jsonValue(of: outline))) }
        members.append(
            (
                "zones",
                .array(
                    floor.zones.map { zone in
                        var zoneMembers: [(key: String, value: JSONValue)] = [("id", .string(zone.id))]
                        if let name = zone.name { zoneMembers.append(("name", .string(name))) }
                        zoneMembers.append(("polygon", jsonValue(of: zone.polygon)))
                        return .object(zoneMembers)
                    })
            ))
        // Written only when the floor has walls: plans without them keep their bytes.
        if !floor.walls.isEmpty {
            members.append(
                (
                    "walls",
                    .array(
                        floor.walls.map { wall in
                            var wallMembers: [(key: String, value: JSONValue)] = [
                                ("from", .array([.number(wall.from.x), .number(wall.from.y)])),
                                ("to", .array([.number(wall.to.x), .number(wall.to.y)]))
                            ]
                            if let loss = wall.attenuation { wallMembers.append(("attenuation", .number(loss))) }
                            return .object(wallMembers)
                        })
                ))
        }
        members.append(
            (
                "beacons",
                .array(
                    floor.beacons.map { beacon in
                        var beaconMembers: [(key: String, value: JSONValue)] = [
                            ("uuid", .string(beacon.identity.uuid.uuidString)),
                            ("major", .number(Int(beacon.identity.major))),
                            ("minor", .number(Int(beacon.identity.minor))),
                            ("x", .number(beacon.position.x)),
                            ("y", .number(beacon.position.y)),
                            ("z", .number(beacon.position.z))
                        ]
                        if let p = beacon.measuredPower { beaconMembers.append(("measuredPower", .number(p))) }
                        if let n = beacon.pathLossExponent { beaconMembers.append(("pathLossExponent", .number(n))) }
                        return .object(beaconMembers)
                    })
            ))
        return .object(members)
    }

    private static func jsonValue(of polygon: Polygon) -> JSONValue {
        .array(polygon.vertices.map { .array([.number($0.x), .number($0.y)]) })
    }

    /// A short reason for a Foundation file error.
    private static func reason(_ error: any Error) -> String { SmallFile.reason(error) }
}
