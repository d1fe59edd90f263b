extension FloorPlan {
    /// Plausible measured power (RSSI at 1 m), dBm.
    public static let measuredPowerRange: ClosedRange<Double> = -120...0
    /// Plausible log-distance exponent.
    public static let pathLossExponentRange: ClosedRange<Double> = 0.5...6
    /// The largest coordinate magnitude of a plan, metres (1000 km): plans use a local metric
    /// frame, and beyond this squared distances lose the precision positioning needs (a plan in
    /// millimetres or in projected geographic coordinates far from their origin is refused).
    public static let coordinateLimit = 1e6
    /// Plausible loss through one wall, dB (0 for a wall that only bounds motion, such as a
    /// glass partition or a shelf; 40 dB is beyond a thick concrete wall at 2.4 GHz).
    public static let wallAttenuationRange: ClosedRange<Double> = 0...40
    /// Plausible receiver height above its floor, metres: a phone in a hand or a pocket (about
    /// 1–1.5 m) up to a receiver on the ceiling of a hall.
    public static let receiverHeightRange: ClosedRange<Double> = 0...20

    /// Checks everything a plan promises (unique levels, identities and zone ids per floor;
    /// finite, plausible numbers; simple polygons); throws the first problem with its JSON path.
    static func validate(defaults: PlanDefaults, floors: [Floor]) throws(FloorPlanError) {
        try checkMeasuredPower(defaults.measuredPower, path: "defaults.measuredPower")
        try checkExponent(defaults.pathLossExponent, path: "defaults.pathLossExponent")
        try checkFinite(defaults.receiverHeight, path: "defaults.receiverHeight")
        if !receiverHeightRange.contains(defaults.receiverHeight) {
            throw .outOfRange(path: "defaults.receiverHeight", value: "\(defaults.receiverHeight)", range: "0...20 m")
        }
        if let loss = defaults.wallAttenuation { try checkWallAttenuation(loss, path: "defaults.wallAttenuation") }
        var levels: [Int: Int] = [:]
        var identities: [BeaconIdentity: String] = [:]
        for (f, floor) in floors.enumerated() {
            let floorPath = "floors[\(f)]"
            if let first = levels[floor.level] {
                throw .duplicateLevel(
                    path: "\(floorPath).level", level: floor.level,
                    firstPath: "floors[\(first)].level")
            }
            levels[floor.level] = f
            try checkCoordinate(floor.elevation, path: "\(floorPath).elevation")
            if let outline = floor.outline {
                try checkPolygon(outline, path: "\(floorPath).outline")
            }
            var zoneIDs: [String: Int] = [:]
            for (z, zone) in floor.zones.enumerated() {
                if let first = zoneIDs[zone.id] {
                    throw .duplicateZone(
                        path: "\(floorPath).zones[\(z)].id", id: zone.id,
                        firstPath: "\(floorPath).zones[\(first)].id")
                }
                if zone.id.isEmpty { throw .emptyZoneID(path: "\(floorPath).zones[\(z)].id") }
                zoneIDs[zone.id] = z
                try checkPolygon(zone.polygon, path: "\(floorPath).zones[\(z)].polygon")
            }
            if floor.walls.count > Wall.maximumPerFloor {
                throw .tooManyWalls(path: "\(floorPath).walls", count: floor.walls.count, limit: Wall.maximumPerFloor)
            }
            for (w, wall) in floor.walls.enumerated() {
                let path = "\(floorPath).walls[\(w)]"
                try checkCoordinate(wall.from.x, path: "\(path).from[0]")
                try checkCoordinate(wall.from.y, path: "\(path).from[1]")
                try checkCoordinate(wall.to.x, path: "\(path).to[0]")
                try checkCoordinate(wall.to.y, path: "\(path).to[1]")
                if wall.from == wall.to { throw .zeroLengthWall(path: path) }
                if let loss = wall.attenuation { try checkWallAttenuation(loss, path: "\(path).attenuation") }
            }
            for (b, beacon) in floor.beacons.enumerated() {
                let path = "\(floorPath).beacons[\(b)]"
                if let first = identities[beacon.identity] {
                    throw .duplicateIdentity(path: path, identity: beacon.identity.description, firstPath: first)
                }
                identities[beacon.identity] = path
                try checkCoordinate(beacon.position.x, path: "\(path).x")
                try checkCoordinate(beacon.position.y, path: "\(path).y")
                try checkCoordinate(beacon.position.z, path: "\(path).z")
                if let p = beacon.measuredPower { try checkMeasuredPower(p, path: "\(path).measuredPower") }
                if let n = beacon.pathLossExponent { try checkExponent(n, path: "\(path).pathLossExponent") }
            }
        }
    }

    static func checkFinite(_ value: Double, path: String) throws(FloorPlanError) {
        if !value.isFinite { throw .nonFinite(path: path, value: "\(value)") }
    }

    /// A coordinate or elevation: finite and within ±``coordinateLimit`` metres.
    static func checkCoordinate(_ value: Double, path: String) throws(FloorPlanError) {
        try checkFinite(value, path: path)
        if abs(value) > coordinateLimit { throw .outOfRange(path: path, value: "\(value)", range: "-1e6...1e6 m") }
    }

    static func checkMeasuredPower(_ value: Double, path: String) throws(FloorPlanError) {
        try checkFinite(value, path: path)
        if !measuredPowerRange.contains(value) {
            throw .outOfRange(path: path, value: "\(value)", range: "-120...0 dBm")
        }
    }

    static func checkWallAttenuation(_ value: Double, path: String) throws(FloorPlanError) {
        try checkFinite(value, path: path)
        if !wallAttenuationRange.contains(value) {
            throw .outOfRange(path: path, value: "\(value)", range: "0...40 dB")
        }
    }

    static func checkExponent(_ value: Double, path: String) throws(FloorPlanError) {
        try checkFinite(value, path: path)
        if !pathLossExponentRange.contains(value) {
            throw .outOfRange(path: path, value: "\(value)", range: "0.5...6")
        }
    }

    /// Checks a polygon: 3 to ``Polygon/maximumVertexCount`` vertices, finite coordinates, not
    /// all on one line, simple (paths of single coordinates are `path[i][0]` for x and `path[i][1]` for y).
    static func checkPolygon(_ polygon: Polygon, path: String) throws(FloorPlanError) {
        if polygon.vertices.count < 3 { throw .tooFewVertices(path: path, count: polygon.vertices.count) }
        if polygon.vertices.count > Polygon.maximumVertexCount {
            throw .tooManyVertices(path: path, count: polygon.vertices.count, limit: Polygon.maximumVertexCount)
        }
        for (i, v) in polygon.vertices.enumerated() {
            try checkCoordinate(v.x, path: "\(path)[\(i)][0]")
            try checkCoordinate(v.y, path: "\(path)[\(i)][1]")
        }
        if polygon.isCollinear { throw .noArea(path: path) }
        if let (edge, otherEdge) = polygon.selfIntersection() {
            throw .selfIntersecting(path: path, edge: edge, otherEdge: otherEdge)
        }
    }

    /// Checks a georeference's ranges (finite, latitude within ±89.9°, longitude within ±180°,
    /// bearing within ±360°).
    static func validate(_ georeference: Georeference, path: String) throws(FloorPlanError) {
        let checks: [(String, Double, ClosedRange<Double>)] = [
            ("latitude", georeference.latitude, Georeference.latitudeRange),
            ("longitude", georeference.longitude, Georeference.longitudeRange),
            ("bearing", georeference.bearing, Georeference.bearingRange)
        ]
        for (key, value, range) in checks {
            try checkFinite(value, path: "\(path).\(key)")
            guard range.contains(value) else {
                throw .outOfRange(
                    path: "\(path).\(key)", value: value.description,
                    range: "\(range.lowerBound)...\(range.upperBound) degrees")
            }
        }
    }
}
