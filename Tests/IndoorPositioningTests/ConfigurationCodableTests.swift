import Foundation
import IndoorPositioning
import Testing

@Suite("Configurations are Codable: engine, solver, tracker")
struct ConfigurationCodableTests {
    static func roundTrip<T: Codable & Equatable>(_ value: T) throws -> T {
        let data = try JSONEncoder().encode(value)
        return try JSONDecoder().decode(T.self, from: data)
    }

    @Test("every setting survives JSON, the non-default ones included")
    func engine() throws {
        var configuration = PositioningEngine.Configuration(
            epoch: 0.5, reorderDelay: 1, tracking: .kalman,
            sampleSigma: 6, constrainToOutline: false,
            recordsHistory: true, excludesInconsistentBeacons: false,
            deviceOffset: .fixed(-3.5))
        configuration.tracker.accelerationDensity = 0.3
        configuration.tracker.motionModes = MotionModes(standingDensity: 0.05, dwellTimes: (25, 12, 18))
        configuration.tracker.outline = Polygon([Point2D(x: 0, y: 0), Point2D(x: 9, y: 0), Point2D(x: 9, y: 7)])
        configuration.solver.estimator = .rangeLeastSquares
        configuration.solver.floorElevations = [0: 0, 1: 3.5]
        configuration.solver.outlierSignificance = 0.001
        configuration.floor.dwellTime = 5
        configuration.shadowing.correlatedShare = 0.25
        configuration.idleRelease = 120
        configuration.learning = OnlineLearning(
            updateInterval: 30, maximumAccuracy: 3,
            calibrator: .init(minimumSamples: 50, huberThreshold: 1.5))
        let decoded = try Self.roundTrip(configuration)
        #expect(decoded == configuration)
        #expect(try Self.roundTrip(PositioningEngine.Configuration()) == PositioningEngine.Configuration())
        #expect(try Self.roundTrip(TrackerConfiguration()) == TrackerConfiguration())
        var solver = TrilaterationSolver.Configuration()
        solver.dimension = .planar(receiverHeight: 1.4)
        solver.linearSolver = .householderQR
        #expect(try Self.roundTrip(solver) == solver)
        // An engine made from the decoded settings runs.
        let plan = try FloorPlan(
            name: "p",
            floors: [
                Floor(
                    level: 0,
                    beacons: (1...3).map {
                        Beacon(
                            identity: BeaconIdentity(uuid: UUID(), major: 1, minor: UInt16($0)),
                            position: Point3D(x: Double($0), y: 0, z: 2))
                    })
            ])
        #expect(throws: Never.self) { _ = try PositioningEngine(plan: plan, configuration: decoded) }
    }
}
