import Foundation
import IndoorPositioning
import TestSupport
import Testing

@Suite("Codable round trips")
struct CodableTests {
    static func roundTrip<T: Codable & Equatable>(_ value: T) throws -> T {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try JSONDecoder().decode(T.self, from: try encoder.encode(value))
    }

    static let walk = SimulatedSite.walk(duration: 40)

    @Test("reports of every source survive JSON unchanged, with accuracy and ellipse written out")
    func reports() throws {
        let site = try SimulatedSite(seed: 8, configuration: Self.walk, device: "phone")
        var reports = try PositioningEngine.locate(site.samples, plan: site.plan, smooth: true)
        var raw = PositioningEngine.Configuration()
        raw.tracking = .none
        reports += try PositioningEngine.locate(site.samples, plan: site.plan, configuration: raw)
        // Two beacons only: fallbacks.
        let two = site.samples.filter {
            $0.identity == SimulatedSite.identity(0) || $0.identity == SimulatedSite.identity(1)
        }
        reports += try PositioningEngine.locate(two, plan: site.plan, configuration: raw)
        let sources = Set(reports.map(\.source))
        #expect(sources == [.smoothed, .fix, .fallback])
        #expect(try Self.roundTrip(reports) == reports)

        let json = try #require(
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(reports[0])) as? [String: Any])
        // JSONSerialization may parse a double one unit in the last place off (JSONDecoder does not).
        let accuracy = try #require(json["accuracy"] as? Double)
        let semiMajor = try #require((json["ellipse"] as? [String: Any])?["semiMajor"] as? Double)
        #expect(abs(accuracy - reports[0].accuracy) <= 1e-15 * reports[0].accuracy)
        #expect(abs(semiMajor - reports[0].ellipse.semiMajor) <= 1e-15 * reports[0].ellipse.semiMajor)
        #expect(json["device"] as? String == "phone")
        #expect(json["source"] as? String == "smoothed")
    }

    @Test("a report written with only an accuracy reads back with the isotropic covariance")
    func accuracyOnly() throws {
        let text =
            #"{"timestamp": 3, "position": {"x": 1, "y": 2, "z": 1.2}, "level": 0, "accuracy": 2,"#
            + #" "source": "fix", "beaconCount": 4}"#
        let report = try JSONDecoder().decode(PositionReport.self, from: Data(text.utf8))
        #expect(report.covariance == PositionCovariance(xx: 2, xy: 0, yy: 2))
        #expect(report.device == nil && report.velocity == nil && report.zone == nil)
    }

    @Test(
        "a decoded report is refused where no engine writes one: huge or negative accuracy, a covariance that is not one, a negative beacon count",
        arguments: [
            (#""accuracy": 1e200, "beaconCount": 4"#, "accuracy"),
            (#""accuracy": -1, "beaconCount": 4"#, "accuracy"),
            (#""covariance": {"xx": -1, "xy": 0, "yy": 1, "xz": 0, "yz": 0, "zz": 0}, "beaconCount": 4"#, "covariance"),
            (#""covariance": {"xx": 1, "xy": 2, "yy": 1, "xz": 0, "yz": 0, "zz": 0}, "beaconCount": 4"#, "covariance"),
            (
                #""covariance": {"xx": 1e200, "xy": 0, "yy": 1, "xz": 0, "yz": 0, "zz": 0}, "beaconCount": 4"#,
                "covariance"
            ),
            (#""accuracy": 2, "beaconCount": -3"#, "beaconCount")
        ])
    func refusedOnDecoding(fields: String, key: String) throws {
        let text =
            #"{"timestamp": 3, "position": {"x": 1, "y": 2, "z": 1.2}, "level": 0, "source": "fix", "#
            + fields + "}"
        do {
            _ = try JSONDecoder().decode(PositionReport.self, from: Data(text.utf8))
            Issue.record("decoded \(fields)")
        } catch let DecodingError.dataCorrupted(context) {
            #expect(context.codingPath.last?.stringValue == key, "\(context)")
        }
    }

    @Test("fixes (converged, with rejections, and fallbacks with infinite GDOP) survive JSON unchanged")
    func fixes() throws {
        let site = try SimulatedSite(seed: 9, configuration: Self.walk)
        var observations = site.observations(before: 2)
        var configuration = PlanConfiguration(plan: site.plan, floor: site.plan.floors[0]).solver
        // As the engine solves: with the centroid prior, whose weight travels with the fix.
        configuration.centroidPriorScale = 1
        var solver = TrilaterationSolver(configuration: configuration)
        let converged = try solver.solve(observations)
        #expect(converged.status.isDetermined)
        #expect(converged.centroidPriorWeight > 0 && converged.centroidPriorWeight <= 1)
        observations[0].meanRSSI -= 30  // a beacon 30 dB off: rejected
        let rejecting = try solver.solve(observations)
        #expect(!rejecting.rejectedBeacons.isEmpty)
        let fallback = try solver.solve(Array(observations.suffix(2)))
        #expect(fallback.gdop == .infinity)
        #expect(fallback.status == .fallback(.tooFewBeacons(available: 2, required: 3)))
        #expect(fallback.centroidPriorWeight == 0)
        for fix in [converged, rejecting, fallback, Fix()] {
            #expect(try Self.roundTrip(fix) == fix)
        }
        // Statuses and reasons are flat objects named by their case.
        let sorted = JSONEncoder()
        sorted.outputFormatting = [.sortedKeys]
        let status = String(decoding: try sorted.encode(fallback.status), as: UTF8.self)
        #expect(status == #"{"available":2,"kind":"fallback","reason":"tooFewBeacons","required":3}"#)
        #expect(
            String(decoding: try sorted.encode(FixStatus.degenerate(rank: 1)), as: UTF8.self)
                == #"{"kind":"degenerate","rank":1}"#)
        let rejection = String(decoding: try sorted.encode(rejecting.rejectedBeacons[0].reason), as: UTF8.self)
        #expect(rejection.hasPrefix(#"{"normalized":"#) && rejection.contains(#""reason":"inconsistentResidual""#))
        for status: FixStatus in [
            .converged, .iterationLimit, .degenerate(rank: 2), .fallback(.unsolved),
            .fallback(.coincidentBeacons), .fallback(.tooFewBeacons(available: 1, required: 4))
        ] {
            #expect(try Self.roundTrip(status) == status)
        }
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(FixStatus.self, from: Data(#"{"kind":"lucky"}"#.utf8))
        }
    }

    @Test("samples, estimates, observations, statistics and tracking modes survive JSON unchanged")
    func smallTypes() throws {
        let id = SimulatedSite.identity(3)
        let samples = [
            RSSISample(timestamp: 1.25, identity: id, rssi: -71, device: "a"),
            RSSISample(timestamp: 2, identity: id, rssi: -64.5)
        ]
        #expect(try Self.roundTrip(samples) == samples)
        let estimate = TrackEstimate(
            time: 4, position: Point2D(x: 1, y: 2), velocity: Point2D(x: 0.5, y: -0.25),
            covarianceXX: 1, covarianceXY: 0.2, covarianceYY: 0.5, level: 1)
        #expect(try Self.roundTrip(estimate) == estimate)
        #expect(try Self.roundTrip([PositioningEngine.TrackingMode.kalman, .none]) == [.kalman, .none])
        let observation = BeaconObservation(
            identity: id, position: Point3D(x: 1, y: 2, z: 2.5), level: 0,
            model: PathLossModel(measuredPower: -60, exponent: 2.2, sigma: 5),
            meanRSSI: -71.5, count: 4)
        #expect(try Self.roundTrip(observation) == observation)
        let site = try SimulatedSite(seed: 2, configuration: Self.walk)
        var engine = try PositioningEngine(plan: site.plan)
        for sample in site.samples.prefix(50) { engine.push(sample) }
        engine.push(RSSISample(timestamp: 0, identity: id, rssi: 0))
        #expect(engine.statistics.accepted > 0 && engine.statistics.invalidRSSI == 1)
        #expect(try Self.roundTrip(engine.statistics) == engine.statistics)
    }

    struct Site: Codable, Equatable {
        var title: String
        var plan: FloorPlan
    }

    @Test("a plan encodes in its own file format, inside any document, and decodes as strictly")
    func plan() throws {
        let site = try SimulatedSite(seed: 1, configuration: Self.walk)
        var floor = site.plan.floors[0]
        floor.zones = [Zone(id: "hall", polygon: floor.outline!)]
        let plan = try FloorPlan(name: "coded", defaults: PlanDefaults(receiverHeight: 1.82), floors: [floor])
        let document = Site(title: "hq", plan: plan)
        #expect(try Self.roundTrip(document) == document)

        // One shape: JSONEncoder's output is the plan format, readable by the plan reader.
        let encoded = try JSONEncoder().encode(plan)
        #expect(try FloorPlan(jsonData: encoded) == plan)
        #expect(try JSONDecoder().decode(FloorPlan.self, from: plan.jsonData()) == plan)

        // A bad plan inside a document: a decoding error naming the path inside the plan.
        let sorted = JSONEncoder()
        sorted.outputFormatting = [.sortedKeys]
        var text = String(decoding: try sorted.encode(document), as: UTF8.self)
        text = text.replacingOccurrences(of: "\"major\":1,", with: "\"major\":70000,")
        #expect(text.contains("70000"))
        do {
            _ = try JSONDecoder().decode(Site.self, from: Data(text.utf8))
            Issue.record("a major of 70000 must not decode")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(
                context.debugDescription.contains("floors[0].beacons[0].major: 70000 is out of range 0...65535"),
                "\(context.debugDescription)")
            #expect(context.codingPath.map(\.stringValue) == ["plan"])
        }
    }
}
