import BeaconModel
import Foundation
import LinearAlgebra
import Ranging
import TestSupport
import Testing

@testable import Trilateration

/// The fallback of fixes whose readings cannot determine a position: the posterior mean over
/// the outline (``TrilaterationSolver/Fallback/outlinePosterior``).
@Suite struct OutlinePosteriorTests {
    static let tau = 10.0

    static func solver(
        _ fallback: TrilaterationSolver.Fallback, outline: Polygon? = Scene.outline
    )
        -> TrilaterationSolver
    {
        var configuration = TrilaterationSolver.Configuration(outline: outline)
        configuration.commonOffsetSigma = tau
        configuration.fallback = fallback
        return TrilaterationSolver(configuration: configuration)
    }

    /// The posterior mean and E‖p − mean‖² by brute force: cell centres of a fine grid over
    /// the room (0.05 m), the common offset integrated out as in the type's formula.
    static func reference(_ observations: [BeaconObservation], tau: Double) -> (mean: Point2D, spread: Double) {
        let h = 0.05
        var logs: [Double] = []
        var points: [(Double, Double)] = []
        for i in 0..<Int(24 / h) {
            for j in 0..<Int(16 / h) {
                let x = (Double(i) + 0.5) * h, y = (Double(j) + 0.5) * h
                var s2 = 0.0, s1 = 0.0, w = 0.0
                for o in observations {
                    let d = Point3D(x: x, y: y, z: Scene.receiverHeight).distance(to: o.position)
                    let r = o.meanRSSI - o.model.expectedRSSI(atDistance: max(d, 0.01))
                    // A mean counts as one reading (see OutlinePosterior).
                    let weight = 1 / (o.model.sigma * o.model.sigma)
                    s2 += weight * r * r
                    s1 += weight * r
                    w += weight
                }
                logs.append(-0.5 * (s2 - s1 * s1 / (1 / (tau * tau) + w)))
                points.append((x, y))
            }
        }
        return Scene.moments(logs: logs, points: points)
    }

    @Test("one to three beacons: the mean and spread agree with a fine-grid integration")
    func agreesWithAFineGrid() throws {
        var g = SeededGenerator(seed: 11)
        var solver = Self.solver(.outlinePosterior)
        for count in 1...3 {
            for _ in 0..<4 {
                let truth = Scene.randomPoint(&g)
                var noise: SeededGenerator? = SeededGenerator(seed: UInt64(count) * 100 + UInt64(g.next() % 100))
                let heard = Array(
                    Scene.observe(at: truth, count: 1, generator: &noise).shuffled(using: &g).prefix(count))
                let fix = try solver.solve(heard)
                #expect(fix.status == .fallback(.tooFewBeacons(available: count, required: 4)))
                let expected = Self.reference(heard, tau: Self.tau)
                // The solver's cells are 0.25 m (24 × 16 m room), one beacon's are pooled into
                // 64 log-distance bins: a few centimetres against a spread of metres.
                let spread = expected.spread.squareRoot()
                #expect(fix.position.planar.distance(to: expected.mean) < 0.02 * spread + 0.02)
                #expect(abs(fix.accuracy - spread) < 0.02 * spread + 0.02)
            }
        }
    }

    @Test("a beacon at the centre of a symmetric outline keeps the mean on it")
    func symmetryKeepsTheCentre() throws {
        var solver = Self.solver(.outlinePosterior)
        let centre = Point3D(x: 12, y: 8, z: 2.6)
        for rssi in [-50.0, -70, -90] {
            let heard = BeaconObservation(
                identity: Scene.identity(0), position: centre, level: 0, model: Scene.model, meanRSSI: rssi)
            let fix = try solver.solve([heard])
            #expect(fix.position.planar.distance(to: centre.planar) < 1e-9)
            // A weaker reading spreads the posterior further from the beacon.
            #expect(fix.accuracy > 1)
        }
        let near = try solver.solve([
            BeaconObservation(
                identity: Scene.identity(0), position: centre, level: 0, model: Scene.model, meanRSSI: -50)
        ])
        let far = try solver.solve([
            BeaconObservation(
                identity: Scene.identity(0), position: centre, level: 0, model: Scene.model, meanRSSI: -90)
        ])
        #expect(far.accuracy > near.accuracy)
    }

    /// Where the model holds (the offset drawn from its prior, shadowing from σ), the
    /// posterior mean is the estimate of least mean squared error: it must beat the weighted
    /// centroid on the same readings, and its covariance must match the errors it makes.
    @Test("under the model: smaller errors than the weighted centroid, and a covariance that matches them")
    func beatsTheCentroidUnderTheModel() throws {
        var g = SeededGenerator(seed: 5)
        var posterior = Self.solver(.outlinePosterior)
        var centroid = Self.solver(.weightedCentroid)
        var noise: SeededGenerator? = SeededGenerator(seed: 6)
        for count in 1...3 {
            var posteriorSquared = 0.0, centroidSquared = 0.0, predicted = 0.0
            let draws = 400
            for _ in 0..<draws {
                let truth = Point3D(
                    x: Double.random(in: 0...24, using: &g), y: Double.random(in: 0...16, using: &g),
                    z: Scene.receiverHeight)
                let offset = g.gaussian(sigma: Self.tau)
                var readings = Scene.observe(at: truth, count: 1, generator: &noise)
                for k in readings.indices { readings[k].meanRSSI = min(readings[k].meanRSSI + offset, 0) }
                // Which beacons are heard does not depend on their readings here (the model has
                // no detection process: the strongest of eight always-audible beacons would
                // tell more than their readings, and the centroid of those wins).
                let heard = Array(readings.shuffled(using: &g).prefix(count))
                let a = try posterior.solve(heard)
                let b = try centroid.solve(heard)
                posteriorSquared += pow(Scene.horizontalError(a, truth), 2)
                centroidSquared += pow(Scene.horizontalError(b, truth), 2)
                predicted += a.accuracy * a.accuracy
            }
            // Strictly better, by a margin far outside the sampling noise of 400 draws.
            #expect(posteriorSquared < 0.8 * centroidSquared, "\(count) beacons")
            // E‖error‖² = E[trace of the posterior covariance] when the model holds; ±30 % is
            // several standard errors of the ratio over 400 draws.
            let ratio = posteriorSquared / predicted
            #expect(ratio > 0.7 && ratio < 1.3, "\(count) beacons: ratio \(ratio)")
        }
    }

    @Test("a mean of many readings weighs as one: the same fix for counts 1 and 30")
    func meansCountAsOneReading() throws {
        var solver = Self.solver(.outlinePosterior)
        var heard = Array(Scene.noiseFree(at: Point3D(x: 7, y: 4, z: 1.2)).prefix(2))
        let once = try solver.solve(heard)
        for k in heard.indices { heard[k].count = 30 }
        let often = try solver.solve(heard)
        #expect(once.position == often.position)
        #expect(once.accuracy == often.accuracy)
    }

    @Test("without an outline, or in space, the fallback stays the weighted centroid")
    func needsAPlanarOutline() throws {
        let truth = Point3D(x: 6, y: 5, z: 1.2)
        let heard = Array(Scene.noiseFree(at: truth).prefix(2))
        var plain = Self.solver(.weightedCentroid, outline: nil)
        var withoutOutline = Self.solver(.outlinePosterior, outline: nil)
        #expect(try withoutOutline.solve(heard) == plain.solve(heard))
        var spatialConfiguration = TrilaterationSolver.Configuration(dimension: .spatial, outline: Scene.outline)
        spatialConfiguration.fallback = .outlinePosterior
        var spatialPosterior = TrilaterationSolver(configuration: spatialConfiguration)
        spatialConfiguration.fallback = .weightedCentroid
        var spatialCentroid = TrilaterationSolver(configuration: spatialConfiguration)
        #expect(try spatialPosterior.solve(heard) == spatialCentroid.solve(heard))
    }

    @Test("an L-shaped outline: the mean stays inside and never lands in the missing corner")
    func lShapedOutline() throws {
        // 20 × 20 m without the square x > 10, y > 10.
        let outline = Polygon([
            Point2D(x: 0, y: 0), Point2D(x: 20, y: 0), Point2D(x: 20, y: 10),
            Point2D(x: 10, y: 10), Point2D(x: 10, y: 20), Point2D(x: 0, y: 20)
        ])
        var solver = Self.solver(.outlinePosterior, outline: outline)
        let corner = Point3D(x: 10, y: 10, z: 2.6)
        for rssi in stride(from: -40.0, through: -100, by: -10) {
            let fix = try solver.solve([
                BeaconObservation(
                    identity: Scene.identity(0), position: corner, level: 0, model: Scene.model, meanRSSI: rssi)
            ])
            #expect(outline.contains(fix.position.planar))
            // The room lies below and left of the inner corner: so does the mean.
            #expect(fix.position.x + fix.position.y < 20)
        }
    }

    @Test("extreme readings and counts never give NaN, and the mean stays in the outline")
    func extremeInputStaysFinite() throws {
        var g = SeededGenerator(seed: 21)
        var solver = Self.solver(.outlinePosterior)
        for _ in 0..<200 {
            var heard = Array(
                Scene.noiseFree(at: Scene.randomPoint(&g)).shuffled(using: &g).prefix(Int.random(in: 1...3, using: &g)))
            for k in heard.indices {
                heard[k].meanRSSI = -Double.random(in: 0...200, using: &g)
                heard[k].count = Int.random(in: 1...10_000, using: &g)
            }
            let fix = try solver.solve(heard)
            #expect(fix.position.isFiniteCoordinate && fix.covariance.isFinite && fix.accuracy.isFinite)
            #expect(Scene.outline.contains(fix.position.planar))
        }
    }

    @Test("a fix does not depend on what the caches hold: beacons cycling through full caches")
    func cachesDoNotChangeResults() throws {
        // 40 beacon positions, more than the 32 profiles and 16 ln d maps kept; each fix solved
        // by a long-lived solver and by a fresh one.
        var g = SeededGenerator(seed: 31)
        let positions = (0..<40).map { _ in
            Point3D(x: Double.random(in: 0...24, using: &g), y: Double.random(in: 0...16, using: &g), z: 2.6)
        }
        var longLived = Self.solver(.outlinePosterior)
        for round in 0..<3 {
            for k in positions.indices {
                var heard: [BeaconObservation] = []
                for j in 0..<(1 + (k + round) % 3) {
                    let position = positions[(k + 7 * j) % positions.count]
                    let rssi = -60.0 - Double((k * 7 + j * 3) % 30)
                    heard.append(
                        BeaconObservation(
                            identity: Scene.identity(j), position: position, level: 0, model: Scene.model,
                            meanRSSI: rssi))
                }
                var fresh = Self.solver(.outlinePosterior)
                #expect(try longLived.solve(heard) == fresh.solve(heard))
            }
        }
    }

    @Test("a changed outline rebuilds the grid")
    func changedOutlineRebuilds() throws {
        var solver = Self.solver(.outlinePosterior)
        let beacon = BeaconObservation(
            identity: Scene.identity(0), position: Point3D(x: 2, y: 2, z: 2.6), level: 0, model: Scene.model,
            meanRSSI: -85)
        let wide = try solver.solve([beacon])
        solver.configuration.outline = Polygon([
            Point2D(x: 0, y: 0), Point2D(x: 4, y: 0), Point2D(x: 4, y: 4), Point2D(x: 0, y: 4)
        ])
        let narrow = try solver.solve([beacon])
        #expect(narrow.position.x <= 4 && narrow.position.y <= 4)
        #expect(wide.position.planar.distance(to: narrow.position.planar) > 1)
    }
}
