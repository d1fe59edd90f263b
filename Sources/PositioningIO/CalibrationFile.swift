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

        /// A fit from its values.
        public init(
            measuredPower: Double, pathLossExponent: Double, sigma: Double, count: Int,
            measuredPowerStandardError: Double? = nil, pathLossExponentStandardError: Double? = nil,
            method: String? = nil
        ) {
            self.measuredPower = measuredPower
            self.pathLossExponent = pathLossExponent
            self.sigma = sigma
            self.count = count
            self.measuredPowerStandardError = measuredPowerStandardError
            self.pathLossExponentStandardError = pathLossExponentStandardError
            self.method = method
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
                method: result.method.name)
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

    /// A file from its parts.
    public init(beacons: [BeaconFit]?, all: Fit) {
        self.beacons = beacons
        self.all = all
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

    /// Per-beacon models for `locate --calibration`: each beacon's fit, keyed by identity.
    public func beaconModels() -> [BeaconIdentity: PathLossModel] {
        var models: [BeaconIdentity: PathLossModel] = [:]
        for entry in beacons ?? [] { models[entry.beacon] = entry.fit.model }
        return models
    }

    /// The model to use for a plan beacon: its own fit when the file has one; else, for a file
    /// without per-beacon fits (anonymous samples), the global fit; else the plan's P₀ and n
    /// with the global σ.
    public func model(for beacon: ResolvedBeacon) -> PathLossModel {
        if let own = beacons?.first(where: { $0.beacon == beacon.identity }) { return own.fit.model }
        if beacons?.isEmpty ?? true { return all.model }
        return PathLossModel(beacon, sigma: all.sigma)
    }

    /// Loads and validates the calibration JSON at `path`.
    /// - Throws: ``CalibrationFileError`` naming the file and the JSON path of the problem.
    public static func load(path: String) throws(CalibrationFileError) -> CalibrationFile {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .unreadable(
                path: path,
                detail: FileManager.default.fileExists(atPath: path)
                    ? "permission denied or not a file" : "no such file")
        }
        return try CalibrationFile(data: data, label: path)
    }

    /// Decodes and validates calibration JSON; `label` stands for the path in errors.
    public init(data: Data, label: String = "<input>") throws(CalibrationFileError) {
        let file: CalibrationFile
        do {
            file = try JSONDecoder().decode(CalibrationFile.self, from: data)
        } catch let error as DecodingError {
            throw Self.describe(error, label: label)
        } catch {
            throw .invalidJSON(path: label, detail: "\(error)")
        }
        // What JSONDecoder lets through: a key given twice (it keeps the last silently).
        do throws(JSONError) {
            try JSONElement.check(data)
        } catch {
            if case .malformedJSON(let detail) = error { throw .invalidJSON(path: label, detail: detail) }
            throw .invalidJSON(path: label, detail: error.description)
        }
        try file.validate(label: label)
        self = file
    }

    private func validate(label: String) throws(CalibrationFileError) {
        try Self.validate(all, at: "all", label: label)
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
        guard fit.pathLossExponent.isFinite, fit.pathLossExponent > 0,
            fit.pathLossExponent <= TrilaterationSolver.exponentRange.upperBound
        else {
            throw .invalidValue(
                path: label, jsonPath: "\(path).pathLossExponent",
                detail: "\(fit.pathLossExponent) is not a positive exponent (at most 20)")
        }
        guard fit.sigma.isFinite, fit.sigma >= 0, fit.sigma <= TrilaterationSolver.sigmaRange.upperBound else {
            throw .invalidValue(
                path: label, jsonPath: "\(path).sigma",
                detail: "\(fit.sigma) is not a non-negative standard deviation in dB (at most 100)")
        }
        guard fit.count >= 0 else {
            throw .invalidValue(path: label, jsonPath: "\(path).count", detail: "\(fit.count) is negative")
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
                return .invalidJSON(path: label, detail: "not valid JSON")
            }
            return .invalidValue(path: label, jsonPath: path(context.codingPath), detail: context.debugDescription)
        @unknown default:
            return .invalidJSON(path: label, detail: "\(error)")
        }
    }
}
