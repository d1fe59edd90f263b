import Foundation
import TestSupport
import Testing

@testable import PositioningIO

@Suite("Calibration JSON")
struct CalibrationFileTests {
    let uuid = UUID(uuidString: "F7826DA6-4FA2-4E98-8024-BC5B71E0893E")!

    func report() throws -> CalibrationReport {
        var rng = SeededGenerator(seed: 3)
        var samples: [CalibrationSample] = []
        for (minor, model) in [
            (UInt16(7), PathLossModel(measuredPower: -61, exponent: 1.8, sigma: 3)),
            (8, PathLossModel(measuredPower: -57, exponent: 2.4, sigma: 3))
        ] {
            for k in 0..<400 {
                let d = 0.5 + Double(k % 20) * 0.5
                samples.append(
                    CalibrationSample(
                        distance: d, rssi: model.expectedRSSI(atDistance: d) + rng.gaussian(sigma: 3),
                        beacon: BeaconIdentity(uuid: uuid, major: 1, minor: minor)))
            }
        }
        return try PathLossCalibration(method: .robust).fitPerBeacon(samples)
    }

    @Test("round trip: report → JSON → file → models")
    func roundTrip() throws {
        let file = CalibrationFile(report: try report(), samplesNameBeacons: true)
        let data = file.jsonData()
        let text = String(decoding: data, as: UTF8.self)
        #expect(
            text.contains("\"measuredPower\"") && text.contains("\"pathLossExponent\"")
                && text.contains("\"uuid\" : \"F7826DA6"))
        let loaded = try CalibrationFile(data: data)
        #expect(loaded == file)
        let models = loaded.beaconModels()
        let seven = try #require(models[BeaconIdentity(uuid: uuid, major: 1, minor: 7)])
        #expect(abs(seven.measuredPower - -61) < 0.6 && abs(seven.exponent - 1.8) < 0.08)
        #expect(loaded.all.count == 800)
        #expect(loaded.all.method == "bisquare")
        // A plan beacon without its own fit keeps the plan's values, with the calibrated σ.
        let other = ResolvedBeacon(
            identity: BeaconIdentity(uuid: uuid, major: 1, minor: 9), level: 0,
            position: Point3D(x: 0, y: 0, z: 0), measuredPower: -59, pathLossExponent: 2)
        #expect(loaded.model(for: other) == PathLossModel(measuredPower: -59, exponent: 2, sigma: loaded.all.sigma))
        let anonymous = CalibrationFile(beacons: nil, all: loaded.all)
        #expect(anonymous.model(for: other) == loaded.all.model)
        #expect(!String(decoding: anonymous.jsonData(), as: UTF8.self).contains("beacons"))
        // Looked up by identity once: the same models, the first fit of a beacon named twice.
        let seventh = BeaconIdentity(uuid: uuid, major: 1, minor: 7)
        var twice = loaded
        var second = try #require(twice.beacons?.first { $0.beacon == seventh })
        second.fit.measuredPower -= 10
        twice.beacons?.append(second)
        let fits = twice.fitsByBeacon
        #expect(fits.count == 2 && fits[seventh] == loaded.beacons?.first { $0.beacon == seventh }?.fit)
        let resolvedSeven = ResolvedBeacon(
            identity: seventh, level: 0, position: Point3D(x: 0, y: 0, z: 0), measuredPower: -59, pathLossExponent: 2)
        for beacon in [resolvedSeven, other] {
            #expect(twice.model(for: beacon, own: fits[beacon.identity]) == twice.model(for: beacon))
        }
        #expect(twice.model(for: resolvedSeven) == seven)
        #expect(twice.beaconModels()[seventh] == seven && twice.beaconModels().count == 2)
    }

    @Test("the FORMATS.md example loads")
    func formatsExample() throws {
        let json = """
            { "beacons": [ { "uuid": "F7826DA6-4FA2-4E98-8024-BC5B71E0893E", "major": 1, "minor": 7,
                             "measuredPower": -61.2, "pathLossExponent": 1.8, "sigma": 4.1, "count": 412 } ],
              "all": { "measuredPower": -60.4, "pathLossExponent": 1.9, "sigma": 4.6, "count": 5120 } }
            """
        let file = try CalibrationFile(data: Data(json.utf8))
        #expect(file.beacons?.first?.fit.measuredPower == -61.2)
        #expect(file.all.model == PathLossModel(measuredPower: -60.4, exponent: 1.9, sigma: 4.6))
    }

    @Test("a top-level array or number says that an object was expected and what was found")
    func wrongTopLevel() throws {
        for (json, found) in [("[1, 2]", "array"), ("7", "number")] {
            do {
                _ = try CalibrationFile(data: Data(json.utf8), label: "c.json")
                Issue.record("accepted \(json)")
            } catch {
                let message = String(describing: error)
                #expect(message.contains("expected an object {…}, found") && message.contains(found), "\(message)")
            }
        }
    }

    @Test(
        "bad files name the JSON path",
        arguments: [
            (#"{"all": {"pathLossExponent": 2, "sigma": 4, "count": 1}}"#, "all.measuredPower"),
            (
                #"{"all": {"measuredPower": -60, "pathLossExponent": -2, "sigma": 4, "count": 1}}"#,
                "all.pathLossExponent"
            ),
            (#"{"all": {"measuredPower": -60, "pathLossExponent": 2, "sigma": -4, "count": 1}}"#, "all.sigma"),
            (#"{"all": {"measuredPower": 5, "pathLossExponent": 2, "sigma": 4, "count": 1}}"#, "all.measuredPower"),
            (
                #"{"all": {"measuredPower": -60, "pathLossExponent": 2, "sigma": 4, "count": 1}, "beacons": [{"uuid": "F7826DA6-4FA2-4E98-8024-BC5B71E0893E", "major": 70000, "minor": 1, "measuredPower": -60, "pathLossExponent": 2, "sigma": 4, "count": 1}]}"#,
                "beacons[0].major"
            ),
            (
                #"{"all": {"measuredPower": -60, "pathLossExponent": 2, "sigma": 4, "count": 1}, "beacons": [{"uuid": "nope", "major": 1, "minor": 1, "measuredPower": -60, "pathLossExponent": 2, "sigma": 4, "count": 1}]}"#,
                "beacons[0].uuid"
            ),
            (#"{"all": {"measuredPower": "loud", "pathLossExponent": 2, "sigma": 4, "count": 1}}"#, "all.measuredPower")
        ])
    func badValues(json: String, path: String) {
        do {
            _ = try CalibrationFile(data: Data(json.utf8), label: "c.json")
            Issue.record("accepted \(json)")
        } catch {
            guard case .invalidValue("c.json", let jsonPath, _) = error else {
                Issue.record("wrong error \(error)")
                return
            }
            #expect(jsonPath == path)
            #expect(error.description.hasPrefix("c.json: \(path): "))
        }
    }

    @Test("duplicates, non-JSON and missing files are typed errors")
    func otherErrors() {
        let entry =
            #"{"uuid": "F7826DA6-4FA2-4E98-8024-BC5B71E0893E", "major": 1, "minor": 1, "measuredPower": -60, "pathLossExponent": 2, "sigma": 4, "count": 1}"#
        let json =
            #"{"all": {"measuredPower": -60, "pathLossExponent": 2, "sigma": 4, "count": 1}, "beacons": ["# + entry
            + "," + entry + "]}"
        #expect(
            throws: CalibrationFileError.duplicateBeacon(
                path: "<input>", jsonPath: "beacons[1]",
                beacon: "F7826DA6-4FA2-4E98-8024-BC5B71E0893E:1:1")
        ) {
            try CalibrationFile(data: Data(json.utf8))
        }
        // Syntax errors name the line and column (they said only "not valid JSON").
        #expect(
            throws: CalibrationFileError.invalidJSON(
                path: "<input>", detail: "an object key in double quotes was expected (line 1, column 2)")
        ) {
            try CalibrationFile(data: Data("{not json".utf8))
        }
        #expect(throws: CalibrationFileError.unreadable(path: "/nonexistent/c.json", detail: "no such file")) {
            try CalibrationFile.load(path: "/nonexistent/c.json")
        }
    }

    /// What JSONDecoder refused without a path or position: "not valid JSON" and nothing else.
    @Test(
        "a fractional count, text after the document, an empty file: the JSON path or the line and column",
        arguments: [
            (
                #"{"all": {"measuredPower": -60, "pathLossExponent": 2, "sigma": 4, "count": 1.5}}"#,
                "c.json: all.count: expected an integer, found 1.5"
            ),
            (
                #"{"all": {"measuredPower": -60, "pathLossExponent": 2, "sigma": 4, "count": 1}, "beacons": [{"uuid": "F7826DA6-4FA2-4E98-8024-BC5B71E0893E", "major": 1, "minor": 2.5, "measuredPower": -60, "pathLossExponent": 2, "sigma": 4, "count": 1}]}"#,
                "c.json: beacons[0].minor: expected an integer, found 2.5"
            ),
            (
                #"{"all": {"measuredPower": -60, "pathLossExponent": 2, "sigma": 4, "count": 1}} {}"#,
                "c.json: not a calibration JSON file: unexpected text after the JSON value (line 1, column 80)"
            ),
            ("", "c.json: not a calibration JSON file: the document is empty (line 1, column 1)"),
            (
                #"{"all": {"measuredPower": -60, "pathLossExponent": 1e-300, "sigma": 4, "count": 1}}"#,
                "c.json: all.pathLossExponent: 1e-300 is not a path-loss exponent the engine accepts (0.1 to 20)"
            ),
            (
                #"{"all": {"measuredPower": -60, "pathLossExponent": 0.05, "sigma": 4, "count": 1}}"#,
                "c.json: all.pathLossExponent: 0.05 is not a path-loss exponent the engine accepts (0.1 to 20)"
            )
        ])
    func locatedErrors(json: String, message: String) {
        #expect(throws: (any Error).self) { try CalibrationFile(data: Data(json.utf8), label: "c.json") }
        do {
            _ = try CalibrationFile(data: Data(json.utf8), label: "c.json")
        } catch {
            #expect(error.description == message)
        }
    }

    @Test(
        "a fit's standard errors and their correlation become the engine's model uncertainty; a correlation outside −1...1 is refused by path"
    )
    func standardErrorCorrelation() throws {
        let file = CalibrationFile(report: try report(), samplesNameBeacons: true)
        let seven = BeaconIdentity(uuid: uuid, major: 1, minor: 7)
        let fit = try #require(file.beacons?.first { $0.beacon == seven }?.fit)
        // Distances 0.5–10 m: x = −10 log₁₀ d mostly below 0, so P₀'s and n's errors move together.
        let r = try #require(fit.standardErrorCorrelation)
        #expect(r > 0.3 && r < 1)
        let plan = try FloorPlan(
            jsonData: Data(
                """
                {"floors":[{"level":0,"beacons":[
                {"uuid":"\(uuid.uuidString)","major":1,"minor":7,"x":0,"y":0},
                {"uuid":"\(uuid.uuidString)","major":1,"minor":8,"x":5,"y":0},
                {"uuid":"\(uuid.uuidString)","major":1,"minor":9,"x":0,"y":5}]}]}
                """.utf8))
        let uncertainty = file.uncertainties(for: plan)
        #expect(uncertainty.count == 2)
        let u = try #require(uncertainty[seven])
        #expect(u.measuredPowerSigma == fit.measuredPowerStandardError && u.correlation == r)
        // Read back from its own JSON, the same.
        let loaded = try CalibrationFile(data: file.jsonData())
        #expect(loaded.uncertainties(for: plan) == uncertainty)
        // A file without the correlation takes it as 0.
        var old = file
        for k in old.beacons!.indices { old.beacons![k].fit.standardErrorCorrelation = nil }
        #expect(old.uncertainties(for: plan)[seven]?.correlation == 0)
        // Out of range: refused, naming the key.
        let bad = String(decoding: file.jsonData(), as: UTF8.self)
            .replacingOccurrences(of: "\"standardErrorCorrelation\" : \(r)", with: "\"standardErrorCorrelation\" : 1.5")
        #expect(bad.contains("1.5"))
        #expect {
            try CalibrationFile(data: Data(bad.utf8), label: "c.json")
        } throws: { error in
            "\(error)".contains("standardErrorCorrelation") && "\(error)".contains("c.json")
        }
    }

    @Test(
        "placeShadowingSigma: written only when given, read back as the engine's place variance (its square), refused outside 0...30 dB by name"
    )
    func placeShadowingSigma() throws {
        #expect(CalibrationFile(report: try report(), samplesNameBeacons: true).placeShadowingVariance == 0)
        let text = try writtenAndReadBack(key: "placeShadowingSigma", written: "2.5") { $0.placeShadowingSigma = 2.5 }
        #expect(try CalibrationFile(data: Data(text.utf8)).placeShadowingVariance == 6.25)
        expectRefused(text, key: "placeShadowingSigma", written: "2.5", as: ["-1", "31", "\"x\""])
        // From learned models: the variance's square root, rounded to 0.01 dB.
        let learned = CalibrationFile(learned: [], pooled: nil, placeShadowingVariance: 10)
        #expect(learned.placeShadowingSigma == 3.16)
        #expect(CalibrationFile(learned: [], pooled: nil, placeShadowingVariance: .nan).placeShadowingSigma == nil)
    }

    /// A survey's file with one top-level key set by `set`: expects the plain file's JSON without
    /// `key`, the set file's with `"key" : written`, and that JSON to read back as the same file;
    /// returns it.
    private func writtenAndReadBack(
        key: String, written: String, _ set: (inout CalibrationFile) -> Void
    ) throws -> String {
        let plain = CalibrationFile(report: try report(), samplesNameBeacons: true)
        #expect(!String(decoding: plain.jsonData(), as: UTF8.self).contains(key))
        var file = plain
        set(&file)
        let text = String(decoding: file.jsonData(), as: UTF8.self)
        #expect(text.contains("\"\(key)\" : \(written)"))
        #expect(try CalibrationFile(data: Data(text.utf8)) == file)
        return text
    }

    /// Expects the file `text` with its top-level `key` spelled `misspelled` to be refused naming
    /// the misspelling and the key meant.
    private func expectMisspellingCaught(_ text: String, key: String, misspelled: String) {
        let json = text.replacingOccurrences(of: "\"\(key)\"", with: "\"\(misspelled)\"")
        #expect {
            try CalibrationFile(data: Data(json.utf8), label: "c.json")
        } throws: { error in
            "\(error)".contains(misspelled) && "\(error)".contains("did you mean \"\(key)\"")
        }
    }

    /// Expects the file `text`, with the top-level `key` (written as `written`) replaced by each
    /// of `values`, to be refused naming the key and the file.
    private func expectRefused(_ text: String, key: String, written: String, as values: [String]) {
        for bad in values {
            let json = text.replacingOccurrences(of: "\"\(key)\" : \(written)", with: "\"\(key)\" : \(bad)")
            #expect(json != text)
            #expect {
                try CalibrationFile(data: Data(json.utf8), label: "c.json")
            } throws: { error in
                "\(error)".contains(key) && "\(error)".contains("c.json")
            }
        }
    }

    @Test(
        "deviceOffsetSigma: written only when given, read back, refused unless above 0 and at most 60 dB, by name; a misspelling is caught"
    )
    func deviceOffsetSigma() throws {
        let text = try writtenAndReadBack(key: "deviceOffsetSigma", written: "0.7") { $0.deviceOffsetSigma = 0.7 }
        expectRefused(text, key: "deviceOffsetSigma", written: "0.7", as: ["0", "-2", "61", "\"x\""])
        expectMisspellingCaught(text, key: "deviceOffsetSigma", misspelled: "deviceOffsetSigm")
        // From learned models: kept as given when it is a usable prior, dropped otherwise.
        #expect(CalibrationFile(learned: [], pooled: nil, deviceOffsetSigma: 1.25).deviceOffsetSigma == 1.25)
        #expect(CalibrationFile(learned: [], pooled: nil, deviceOffsetSigma: .nan).deviceOffsetSigma == nil)
        #expect(CalibrationFile(learned: [], pooled: nil, deviceOffsetSigma: 0).deviceOffsetSigma == nil)
    }

    @Test(
        "wallAttenuation: written only when given, read back, refused outside 0...40 dB by name; a misspelling is caught; from learning, rounded to 0.01 dB"
    )
    func wallAttenuation() throws {
        let text = try writtenAndReadBack(key: "wallAttenuation", written: "7.5") { $0.wallAttenuation = 7.5 }
        expectRefused(text, key: "wallAttenuation", written: "7.5", as: ["-1", "40.5", "\"x\""])
        expectMisspellingCaught(text, key: "wallAttenuation", misspelled: "wallAtenuation")
        #expect(CalibrationFile(learned: [], pooled: nil, wallAttenuation: 3.816).wallAttenuation == 3.82)
        #expect(CalibrationFile(learned: [], pooled: nil, wallAttenuation: 0).wallAttenuation == 0)
        #expect(CalibrationFile(learned: [], pooled: nil, wallAttenuation: .nan).wallAttenuation == nil)
        #expect(CalibrationFile(learned: [], pooled: nil, wallAttenuation: 41).wallAttenuation == nil)
    }

    @Test(
        "a key close to a known one is refused with its path and the key meant, at the top, in all and in a beacon's entry; annotations pass"
    )
    func misspelledKeys() throws {
        let good = String(
            decoding: CalibrationFile(report: try report(), samplesNameBeacons: true).jsonData(), as: UTF8.self)
        for (from, to, path, meant) in [
            ("\"all\" :", "\"beacon\" : [], \"all\" :", "beacon", "beacons"),
            ("\"all\" : {", "\"all\" : { \"measuredPowr\" : 1,", "all.measuredPowr", "measuredPower"),
            ("\"beacons\" : [\n    {", "\"beacons\" : [\n    { \"minr\" : 3,", "beacons[0].minr", "minor")
        ] {
            let json = good.replacingOccurrences(of: from, with: to)
            #expect(json != good)
            #expect {
                try CalibrationFile(data: Data(json.utf8), label: "c.json")
            } throws: { error in
                "\(error)".hasPrefix("c.json: \(path): unknown key") && "\(error)".contains("did you mean \"\(meant)\"")
            }
        }
        let annotated = good.replacingOccurrences(of: "\"all\" :", with: "\"note\" : \"survey of May\", \"all\" :")
        #expect(annotated != good)
        #expect(try CalibrationFile(data: Data(annotated.utf8)) == CalibrationFile(data: Data(good.utf8)))
    }
}
