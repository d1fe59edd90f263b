import Foundation
import IndoorPositioning
import TestSupport
import Testing

@Suite("Configuration from the plan")
struct PlanConfigurationTests {
    /// The simulated site moved to level 2 at 3.5 m, with a 1.82 m receiver height (not the
    /// library's 1.2 m default).
    static func raisedSite() throws -> (site: SimulatedSite, plan: FloorPlan) {
        let site = try SimulatedSite(seed: 3, configuration: SimulatedSite.walk(duration: 20))
        let floor = site.plan.floors[0]
        let beacons = floor.beacons.map {
            Beacon(identity: $0.identity, position: Point3D(x: $0.position.x, y: $0.position.y, z: $0.position.z + 3.5))
        }
        let plan = try FloorPlan(
            name: "raised",
            defaults: PlanDefaults(
                measuredPower: site.plan.defaults.measuredPower,
                pathLossExponent: site.plan.defaults.pathLossExponent,
                receiverHeight: 1.82),
            floors: [
                Floor(level: 0, elevation: 0, beacons: []),
                Floor(level: 2, elevation: 3.5, outline: floor.outline, beacons: beacons)
            ])
        return (site, plan)
    }

    @Test("one call copies receiver height, elevations and outline into solver and tracker")
    func copiesThePlan() throws {
        let (_, plan) = try Self.raisedSite()
        let setup = try PlanConfiguration(plan: plan, level: 2)
        #expect(setup.level == 2 && setup.floorElevation == 3.5 && setup.receiverHeight == 1.82)
        #expect(setup.solver.dimension == .planar(receiverHeight: 1.82))
        #expect(setup.solver.floorElevations == [0: 0, 2: 3.5])
        #expect(setup.solver.outline == plan.floor(level: 2)!.outline)
        #expect(setup.tracker.receiverHeight == 1.82)
        #expect(setup.tracker.outline == plan.floor(level: 2)!.outline)
        // Tuning passed in is kept; only the plan's values are replaced.
        var tuning = TrackerConfiguration()
        tuning.accelerationDensity = 0.3
        tuning.receiverHeight = 9
        let tuned = try PlanConfiguration(plan: plan, level: 2, tracker: tuning, constrainToOutline: false)
        #expect(tuned.tracker.accelerationDensity == 0.3 && tuned.tracker.receiverHeight == 1.82)
        #expect(tuned.outline == nil && tuned.solver.outline == nil && tuned.tracker.outline == nil)
        #expect(
            throws: PositioningError.invalidConfiguration(
                "the plan 'raised' has no floor at level 1; its levels are 0, 2")
        ) {
            try PlanConfiguration(plan: plan, level: 1)
        }
    }

    @Test("the bundled example plan's 1.82 m receiver height reaches the solver")
    func bundledPlan() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let plan = try FloorPlan.load(path: root.appendingPathComponent("Docs/Examples/office-plan.json").path)
        let setup = PlanConfiguration(plan: plan, floor: plan.floors[0])
        #expect(plan.defaults.receiverHeight == 1.82)
        #expect(setup.solver.dimension == .planar(receiverHeight: 1.82))
        #expect(setup.tracker.receiverHeight == 1.82)
    }

    @Test("a solver configured from the plan gives the engine's raw fix, at floor elevation + receiver height")
    func solverMatchesEngine() throws {
        let (site, plan) = try Self.raisedSite()
        var raw = PositioningEngine.Configuration()
        raw.tracking = .none
        let reports = try PositioningEngine.locate(site.samples, plan: plan, configuration: raw)
        let first = try #require(reports.first)

        let start = site.samples.map(\.timestamp).min()!
        let observations = site.observations(before: start + raw.epoch, plan: plan)
        // The engine's solver settings: its defaults, with the common offset at the device
        // offset's prior on an uncalibrated plan.
        var settings = PositioningEngine.Configuration.engineSolver
        settings.commonOffsetSigma = PositioningEngine.Configuration.uncalibratedOffsetSigma
        var solver = TrilaterationSolver(
            configuration: try PlanConfiguration(plan: plan, level: 2, solver: settings).solver)
        let fix = try solver.solve(observations)
        #expect(abs(fix.position.z - (3.5 + 1.82)) < 1e-12)
        #expect(abs(first.position.z - fix.position.z) < 1e-12)
        #expect(first.position.planar.distance(to: fix.position.planar) < 1e-6)
        // Reported with the covariance its readings support on their own, as a track would
        // start: the centroid prior's information w I out, then scaled by max(1, χ²/dof).
        let c = fix.covariance, w = fix.centroidPriorWeight
        #expect(w > 0 && fix.degreesOfFreedom > 0)
        let det = c.xx * c.yy - c.xy * c.xy
        let j = (xx: c.yy / det - w, xy: -c.xy / det, yy: c.xx / det - w)
        let factor = max(1, fix.chiSquare / Double(fix.degreesOfFreedom))
        let expected = ((j.xx + j.yy) / (j.xx * j.yy - j.xy * j.xy) * factor).squareRoot()
        #expect(abs(first.accuracy - expected) < 1e-6 * expected)
        #expect(first.accuracy > fix.accuracy)
        // With the library's 1.2 m default the fix differs: the height matters.
        var plain = TrilaterationSolver()
        let wrong = try plain.solve(observations)
        #expect(abs(wrong.position.z - fix.position.z) > 0.5)
    }
}
