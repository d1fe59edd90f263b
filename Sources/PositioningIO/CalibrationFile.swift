import Foundation

/// The calibration JSON of FORMATS.md: the fit over all samples (`all`) and, when the samples
/// named beacons, one fit per beacon (`beacons`).
///
/// Besides the keys of the format (`measuredPower` dBm, `pathLossExponent`, `sigma` dB,
/// `count`) each fit carries the optional keys `measuredPowerStandardError` (dB),
/// `pathLossExponentStandardError` and `method`, which readers may ignore.
public struct CalibrationFile: Sendable, Hashable, Codable {
    /// One fitted model.
    public struct Fit: Sendable, Hashable, Codable {
        /// RSSI at 1 m, dBm.
        public var measuredPower: Double
        /// Log-distance path-loss exponent.
        public var pathLossExponent: Double
        /// Shadowing standard deviation, dB.
        public var sigma: Double
        /// Number of samples fitted.
        public var count: Int
        /// Standard error of `measuredPower`, dB.
        public var measuredPowerStandardError: Double?
        /// Standard error of `pathLossExponent`.
        public var pathLossExponentStandardError: Double?
        /// The fitting method's name (`leastSquares`, `huber`, `bisquare`, `trimmed`).
        public var method: String?
        /// Correlation of the errors of `measuredPower` and `pathLossExponent`, −1...1: with the
        /// two standard errors it gives the uncertainty of the model's prediction at a distance
        /// (`PathLossUncertainty`), which the reported radius considers.
        public var standardErrorCorrelation: Double?

        /// A fit from its values.
        public init(
            measuredPower: Double, pathLossExponent: Double, sigma: Double, count: Int,
            measuredPowerStandardError: Double? = nil, pathLossExponentStandardError: Double? = nil,
            method: String? = nil, standardErrorCorrelation: Double? = nil
        ) {
            self.measuredPower = measuredPower
            self.pathLossExponent = pathLossExponent
            self.sigma = sigma
            self.count = count
            self.measuredPowerStandardError = measuredPowerStandardError
            self.pathLossExponentStandardError = pathLossExponentStandardError
            self.method = method
            self.standardErrorCorrelation = standardErrorCorrelation
        }

        /// The fit of a calibration result, rounded to what its precision supports
        /// (0.01 dB, 0.0001 in n).
        public init(_ result: CalibrationResult) {
            self.init(
                measuredPower: Self.round(result.model.measuredPower, 100),
                pathLossExponent: Self.round(result.model.exponent, 10_000),
                sigma: Self.round(result.model.sigma, 100),
                count: result.count,
                measuredPowerStandardError: Self.round(result.measuredPowerStandardError, 10_000),
                pathLossExponentStandardError: Self.round(result.exponentStandardError, 100_000),
                method: result.method.name, standardErrorCorrelation: Self.round(result.correlation, 10_000))
        }

        /// The path-loss model of this fit.
        public var model: PathLossModel {
            PathLossModel(measuredPower: measuredPower, exponent: pathLossExponent, sigma: sigma)
        }

        static func round(_ value: Double, _ scale: Double) -> Double {
            value.isFinite ? (value * scale).rounded() / scale : value
        }
    }

    /// A fit of one beacon's samples.
    public struct BeaconFit: Sendable, Hashable, Codable {
        /// The beacon calibrated.
        public var beacon: BeaconIdentity
        /// Its fit.
        public var fit: Fit

        /// Pairs a beacon with its fit.
        public init(beacon: BeaconIdentity, fit: Fit) {
            self.beacon = beacon
            self.fit = fit
        }

        private enum Keys: String, CodingKey { case uuid, major, minor }

        /// Decodes the flat form of FORMATS.md: `uuid`, `major`, `minor` beside the fit's keys.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            let text = try container.decode(String.self, forKey: .uuid)
            guard let uuid = UUID(uuidString: text) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .uuid, in: container,
                    debugDescription: "'\(text)' is not a UUID")
            }
            var parts: [UInt16] = []
            for key in [Keys.major, .minor] {
                let value = try container.decode(Int.self, forKey: key)
                guard let part = UInt16(exactly: value) else {
                    throw DecodingError.dataCorruptedError(
                        forKey: key, in: container,
                        debugDescription: "\(value) is out of range 0...65535")
                }
                parts.append(part)
            }
            beacon = BeaconIdentity(uuid: uuid, major: parts[0], minor: parts[1])
            fit = try Fit(from: decoder)
        }

        /// Encodes the flat form of FORMATS.md: `uuid` (upper case), `major`, `minor` beside the fit's keys.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(beacon.uuid.uuidString, forKey: .uuid)
            try container.encode(beacon.major, forKey: .major)
            try container.encode(beacon.minor, forKey: .minor)
            try fit.encode(to: encoder)
        }
    }

    /// Per-beacon fits, or nil when the samples did not name beacons.
    public var beacons: [BeaconFit]?
    /// The fit over every sample.
    public var all: Fit
    /// The standard deviation of the shadowing that belongs to a place, dB, from models learned
    /// from traffic (`TrafficCalibration.Result.placeShadowingVariance`, its square root): what a
    /// phone that stays in one place keeps of its error, which the reported radius considers
    /// (`PositioningEngine.Configuration.placeShadowingVariance`). Optional; written by
    /// `calibrate --from-traffic`.
    public var placeShadowingSigma: Double?
    /// The prior standard deviation of a device's RSSI offset, dB, that the devices of the
    /// traffic the models were learned from support (`DeviceOffsetSpread.sigma`, 0.1 to 10 dB):
    /// the offset prior `locate --calibration` positions phones with unless
    /// `--device-offset-sigma` or `--device-offset` is given, as `locate --self-calibrate` does.
    /// Optional; written by `calibrate --from-traffic` when two or more devices were heard.
    public var deviceOffsetSigma: Double?
    /// The loss through one wall, dB (0–40), learned from the traffic for the plan's walls that
    /// give no `attenuation` where the plan's `defaults` give no `wallAttenuation` either
    /// (`TrafficCalibration.Result.wallAttenuation`): `locate --calibration` counts it for those
    /// walls (`PositioningEngine.Configuration.wallAttenuation`), as `locate --self-calibrate`
    /// does. Optional; written by `calibrate --from-traffic` when it learned the loss.
    public var wallAttenuation: Double?

    /// A file from its parts.
    public init(
        beacons: [BeaconFit]?, all: Fit, placeShadowingSigma: Double? = nil, deviceOffsetSigma: Double? = nil,
        wallAttenuation: Double? = nil
    ) {
        self.beacons = beacons
        self.all = all
        self.placeShadowingSigma = placeShadowingSigma
        self.deviceOffsetSigma = deviceOffsetSigma
        self.wallAttenuation = wallAttenuation
    }

    /// The file for a calibration report. `beacons` is nil when no sample named a beacon. A
    /// beacon whose own fit failed (too few samples or distances, or an implausible fit) gets the
    /// overall fit with its own sample count and `"method": "global"`, so that every beacon the
    /// samples name has an entry.
    public init(report: CalibrationReport, samplesNameBeacons: Bool) {
        self.all = Fit(report.all)
        guard samplesNameBeacons else {
            self.beacons = nil
            return
        }
        var fallback = Fit(report.all)
        fallback.method = Self.globalFallbackMethod
        let fitted = report.beacons.map { BeaconFit(beacon: $0.beacon, fit: Fit($0.result)) }
        let failed = report.failures.map { failure in
            var fit = fallback
            fit.count = failure.count
            return BeaconFit(beacon: failure.beacon, fit: fit)
        }
        self.beacons = (fitted + failed).sorted { $0.beacon < $1.beacon }
    }

    /// The `method` of a beacon entry that took the overall fit because its own failed.
    public static let globalFallbackMethod = "global"

    /// Pretty-printed JSON with sorted keys, ending in a newline.
    public func jsonData() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Encoding these plain values cannot fail once validated; non-finite values are
        // written as strings rather than aborting.
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        let data = (try? encoder.encode(self)) ?? Data("{}".utf8)
        return data + Data("\n".utf8)
    }

    /// Per-beacon models for `locate --calibration`: each beacon's fit (its first, as
    /// ``fitsByBeacon``), keyed by identity.
    public func beaconModels() -> [BeaconIdentity: PathLossModel] { fitsByBeacon.mapValues(\.model) }

    /// The model to use for a plan beacon: its own fit when the file has one; else, for a file
    /// without per-beacon fits (anonymous samples), the global fit; else the plan's P₀ and n
    /// with the global σ.
    public func model(for beacon: ResolvedBeacon) -> PathLossModel {
        model(for: beacon, own: beacons?.first(where: { $0.beacon == beacon.identity })?.fit)
    }

    /// ``model(for:)`` with the beacon's own fit already looked up in ``fitsByBeacon`` (nil:
    /// the file has none): constant time, for looking up many beacons.
    public func model(for beacon: ResolvedBeacon, own: Fit?) -> PathLossModel {
        if let own { return own.model }
        if beacons?.isEmpty ?? true { return all.model }
        return PathLossModel(beacon, sigma: all.sigma)
    }

    /// Each beacon's first fit in the file, by identity (as ``model(for:)`` finds it): one pass,
    /// so that looking every plan beacon up is linear rather than quadratic.
    public var fitsByBeacon: [BeaconIdentity: Fit] {
        var fits: [BeaconIdentity: Fit] = [:]
        for entry in beacons ?? [] where fits[entry.beacon] == nil { fits[entry.beacon] = entry.fit }
        return fits
    }

    /// The largest calibration file ``load(path:)`` reads, bytes (16 MiB, as for plans and
    /// regions): a file of 100,000 beacons is about 30 MB less than that.
    public static let maximumFileSize = 16 << 20

    /// Loads and validates the calibration JSON at `path` (a regular file or a pipe such as
    /// `/dev/stdin`, at most ``maximumFileSize`` bytes).
    /// - Throws: ``CalibrationFileError`` naming the file and the JSON path of the problem.
    public static func load(path: String) throws(CalibrationFileError) -> CalibrationFile {
        let data: Data
        do {
            data = try SmallFile.read(path: path, limit: maximumFileSize)
        } catch {
            switch error {
            case .missing: throw .unreadable(path: path, detail: "no such file")
            case .directory: throw .unreadable(path: path, detail: "it is a directory; give a calibration JSON file")
            case .unopenable: throw .unreadable(path: path, detail: "permission denied or not a file")
            case .unreadable(let reason): throw .unreadable(path: path, detail: reason)
            case .tooLarge(let limit):
                throw .unreadable(
                    path: path,
                    detail: "it is larger than \(limit >> 20) MiB; a calibration file is a few hundred bytes per "
                        + "beacon, check that this is the calibration file")
            }
        }
        return try CalibrationFile(data: data, label: path)
    }

    /// Loads the calibration JSON at `path` for use with `plan`.
    /// - Throws: as ``load(path:)``, and ``CalibrationFileError/noPlanBeacon(path:entries:example:planExample:)``
    ///   when the file has per-beacon fits but none for a beacon of the plan.
    public static func load(path: String, for plan: FloorPlan) throws(CalibrationFileError) -> CalibrationFile {
        let file = try load(path: path)
        try file.check(against: plan, label: path)
        return file
    }

    /// Throws ``CalibrationFileError/noPlanBeacon(path:entries:example:planExample:)`` when the
    /// file has per-beacon fits and none of them is for a beacon of `plan`: every beacon would
    /// then keep the plan's values, and the file would change nothing but σ without a word.
    public func check(against plan: FloorPlan, label: String) throws(CalibrationFileError) {
        guard let first = planMismatch(plan) else { return }
        throw .noPlanBeacon(
            path: label, entries: beacons?.count ?? 0, example: first.description,
            planExample: plan.beacons.first.map { $0.identity.description } ?? "no beacon")
    }

    /// The first beacon the file fits when it fits none of `plan`'s; nil when it fits one of
    /// them or has no per-beacon fits.
    public func planMismatch(_ plan: FloorPlan) -> BeaconIdentity? {
        guard let beacons, let first = beacons.first else { return nil }
        let known = Set(plan.beacons.map(\.identity))
        return beacons.contains { known.contains($0.beacon) } ? nil : first.beacon
    }

    /// Decodes and validates calibration JSON; `label` stands for the path in errors.
    public init(data: Data, label: String = "<input>") throws(CalibrationFileError) {
        // The strict parser first: syntax errors (an empty file, text after the document, a key
        // given twice, which JSONDecoder would take silently) with their line and column.
        let document: JSONValue
        do throws(JSONError) {
            document = try JSONParser.parse(Array(data))
        } catch {
            if case .malformedJSON(let detail) = error { throw .invalidJSON(path: label, detail: detail) }
            throw .invalidJSON(path: label, detail: error.description)
        }
        // Integers that JSONDecoder refuses without a path (a `count` of 1.5).
        try Self.checkIntegers(document, label: label)
        // A misspelled key that JSONDecoder would skip (`measuredPowr`).
        try Self.checkKeys(document, label: label)
        let file: CalibrationFile
        do {
            file = try JSONDecoder().decode(CalibrationFile.self, from: data)
        } catch let error as DecodingError {
            throw Self.describe(error, label: label)
        } catch {
            throw .invalidJSON(path: label, detail: "\(error)")
        }
        try file.validate(label: label)
        self = file
    }

    /// Checks that `count`, `major` and `minor`, where they are numbers, are integers in range,
    /// naming the JSON path of one that is not.
    private static func checkIntegers(_ document: JSONValue, label: String) throws(CalibrationFileError) {
        func check(_ object: JSONNode, _ keys: [(String, ClosedRange<Int>)]) throws(JSONError) {
            guard let members = try? object.object() else { return }
            for (key, range) in keys {
                guard let node = members.optional(key), case .number = node.value else { continue }
                _ = try node.integer(in: range)
            }
        }
        let top = JSONNode(value: document, path: "")
        do throws(JSONError) {
            guard let members = try? top.object() else { return }
            if let all = members.optional("all") { try check(all, [("count", 0...Int.max)]) }
            if let beacons = members.optional("beacons"), let entries = try? beacons.array() {
                for entry in entries {
                    try check(entry, [("count", 0...Int.max), ("major", 0...65535), ("minor", 0...65535)])
                }
            }
        } catch {
            throw invalidValue(error, label: label)
        }
    }

    /// The file's error for what a walk of the parsed document found at one JSON path: the path,
    /// and what is wrong there.
    private static func invalidValue(_ error: JSONError, label: String) -> CalibrationFileError {
        let detail: String
        switch error {
        case .wrongType(_, let expected, let found): detail = "expected \(expected), found \(found)"
        case .outOfRange(_, let value, let range): detail = "\(value) is out of range \(range)"
        case .nonFinite(_, let value): detail = "\(value) is not a finite number"
        case .misspelledKey(_, let key, let suggestion):
            detail =
                "unknown key \(key.quotedForMessage()); did you mean \(suggestion.quotedForMessage())? "
                + "(a misspelled key would be ignored)"
        default: detail = error.description
        }
        return .invalidValue(path: label, jsonPath: error.path, detail: detail)
    }

    /// The keys of a fit (`all`, and each entry of `beacons` beside `uuid`, `major`, `minor`).
    static let fitKeys = [
        "measuredPower", "pathLossExponent", "sigma", "count", "measuredPowerStandardError",
        "pathLossExponentStandardError", "method", "standardErrorCorrelation"
    ]

    /// Refuses a key close to a known one (`JSONKeySpelling`), which decoding would ignore,
    /// naming its JSON path and the key meant; other unknown keys are annotations (`note`,
    /// `comment`), as in the plan and the regions file.
    private static func checkKeys(_ document: JSONValue, label: String) throws(CalibrationFileError) {
        do throws(JSONError) {
            guard let top = try? JSONElement(JSONNode(value: document, path: "")).object() else { return }
            try top.rejectMisspelledKeys(known: [
                "beacons", "all", "placeShadowingSigma", "deviceOffsetSigma", "wallAttenuation"
            ])
            if let all = try? top.optional("all")?.object() { try all.rejectMisspelledKeys(known: fitKeys) }
            for entry in (try? top.optional("beacons")?.array()) ?? [] {
                guard let members = try? entry.object() else { continue }
                try members.rejectMisspelledKeys(known: fitKeys + ["uuid", "major", "minor"])
            }
        } catch {
            // `rejectMisspelledKeys` throws only `misspelledKey`.
            throw invalidValue(error, label: label)
        }
    }

    private func validate(label: String) throws(CalibrationFileError) {
        try Self.validate(all, at: "all", label: label)
        if let sigma = placeShadowingSigma, !(sigma.isFinite && (0...30).contains(sigma)) {
            throw .invalidValue(
                path: label, jsonPath: "placeShadowingSigma",
                detail: "\(sigma) is not a standard deviation in dB from 0 to 30")
        }
        if let sigma = deviceOffsetSigma, !DeviceOffsetModel.isValidPriorSigma(sigma) {
            throw .invalidValue(
                path: label, jsonPath: "deviceOffsetSigma",
                detail: "\(sigma) is not a standard deviation in dB above 0 and at most 60 (as --device-offset-sigma)")
        }
        if let loss = wallAttenuation, !FloorPlan.wallAttenuationRange.contains(loss) {
            throw .invalidValue(
                path: label, jsonPath: "wallAttenuation",
                detail: "\(loss) is not a loss per wall in dB from 0 to 40 (as a plan's wallAttenuation)")
        }
        var seen: Set<BeaconIdentity> = []
        for (index, entry) in (beacons ?? []).enumerated() {
            let path = "beacons[\(index)]"
            try Self.validate(entry.fit, at: path, label: label)
            if !seen.insert(entry.beacon).inserted {
                throw .duplicateBeacon(path: label, jsonPath: path, beacon: entry.beacon.description)
            }
        }
    }

    private static func validate(_ fit: Fit, at path: String, label: String) throws(CalibrationFileError) {
        guard fit.measuredPower.isFinite, fit.measuredPower < 0,
            fit.measuredPower >= TrilaterationSolver.measuredPowerRange.lowerBound
        else {
            throw .invalidValue(
                path: label, jsonPath: "\(path).measuredPower",
                detail: "\(fit.measuredPower) is not a negative RSSI in dBm (at least −200)")
        }
        // The engine's own range: an exponent of 1e-300 was accepted here and refused by every
        // fix (0 positions, exit 0).
        guard fit.pathLossExponent.isFinite, TrilaterationSolver.exponentRange.contains(fit.pathLossExponent) else {
            let range = TrilaterationSolver.exponentRange
            throw .invalidValue(
                path: label, jsonPath: "\(path).pathLossExponent",
                detail:
                    "\(fit.pathLossExponent) is not a path-loss exponent the engine accepts (\(range.lowerBound) to \(Int(range.upperBound)))"
            )
        }
        guard fit.sigma.isFinite, fit.sigma >= 0, fit.sigma <= TrilaterationSolver.sigmaRange.upperBound else {
            throw .invalidValue(
                path: label, jsonPath: "\(path).sigma",
                detail: "\(fit.sigma) is not a non-negative standard deviation in dB (at most 100)")
        }
        guard fit.count >= 0 else {
            throw .invalidValue(path: label, jsonPath: "\(path).count", detail: "\(fit.count) is negative")
        }
        if let r = fit.standardErrorCorrelation, !(r.isFinite && (-1...1).contains(r)) {
            throw .invalidValue(
                path: label, jsonPath: "\(path).standardErrorCorrelation", detail: "\(r) is not a correlation (−1 to 1)"
            )
        }
    }

    private static func describe(_ error: DecodingError, label: String) -> CalibrationFileError {
        func path(_ keys: [any CodingKey]) -> String {
            var text = ""
            for key in keys {
                if let index = key.intValue {
                    text += "[\(index)]"
                } else {
                    text += (text.isEmpty ? "" : ".") + key.stringValue
                }
            }
            return text.isEmpty ? "(top level)" : text
        }
        switch error {
        case .keyNotFound(let key, let context):
            return .invalidValue(path: label, jsonPath: path(context.codingPath + [key]), detail: "is missing")
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            let name = String(describing: type)
            let expected =
                type == String.self
                ? "a string"
                : type == Int.self
                    ? "an integer"
                    : name.hasPrefix("Dictionary")
                        ? "an object {…}" : name.hasPrefix("Array") ? "an array […]" : "a number"
            // Foundation says what it found ("… but found an array instead.").
            var found = ""
            if let range = context.debugDescription.range(of: "found "),
                let end = context.debugDescription.range(
                    of: " instead", range: range.upperBound..<context.debugDescription.endIndex)
            {
                found = ", found " + context.debugDescription[range.upperBound..<end.lowerBound]
            }
            return .invalidValue(
                path: label, jsonPath: path(context.codingPath), detail: "expected \(expected)\(found)")
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                return .invalidJSON(path: label, detail: "not valid JSON (\(context.debugDescription))")
            }
            return .invalidValue(path: label, jsonPath: path(context.codingPath), detail: context.debugDescription)
        @unknown default:
            return .invalidJSON(path: label, detail: "\(error)")
        }
    }
}
