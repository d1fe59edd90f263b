import BeaconModel
import Foundation
import LinearAlgebra
import TestSupport
import Testing

@testable import Trilateration

@Suite struct SolverBehaviourTests {
    @Test(arguments: [TrilaterationSolver.Estimator.maximumLikelihood, .rangeLeastSquares])
    func noiseFreePlanarIsExact(estimator: TrilaterationSolver.Estimator) throws {
        var solver = TrilaterationSolver(configuration: .init(estimator: estimator))
        var g = SeededGenerator(seed: 1)
        for _ in 0..<50 {
            let truth = Scene.randomPoint(&g)
            let fix = try solver.solve(Scene.noiseFree(at: truth))
            #expect(fix.status == .converged)
            #expect(fix.position.distance(to: truth) < 1e-6)
            #expect(fix.position.z == Scene.receiverHeight)
            #expect(fix.rejectedBeacons.isEmpty)
            #expect(fix.usedBeacons.count == 8)
            #expect(fix.residualRMS < 1e-6)
        }
    }

    @Test func noiseFreeSpatialIsExact() throws {
        // Beacons at two heights so that z is observable.
        let beacons = Scene.anchors.enumerated().map { k, p in
            Point3D(x: p.x, y: p.y, z: k.isMultiple(of: 2) ? 2.6 : 0.4)
        }
        var solver = TrilaterationSolver(configuration: .init(dimension: .spatial))
        var g = SeededGenerator(seed: 2)
        for _ in 0..<50 {
            var truth = Scene.randomPoint(&g)
            truth.z = Double.random(in: 0.5...2.2, using: &g)
            let fix = try solver.solve(Scene.noiseFree(at: truth, planned: beacons))
            #expect(fix.status == .converged)
            #expect(fix.position.distance(to: truth) < 1e-6)
            #expect(fix.covariance.zz > 0)
        }
    }

    @Test func translatingTheBeaconsTranslatesTheFix() throws {
        var g = SeededGenerator(seed: 3)
        let shift = Point3D(x: 1234.5, y: -987.25, z: 0)
        var solver = TrilaterationSolver()
        for _ in 0..<20 {
            let truth = Scene.randomPoint(&g)
            var noise: SeededGenerator? = g
            let observations = Scene.observe(at: truth, generator: &noise)
            g = noise!
            let moved = observations.map { o in
                var o = o
                o.position = o.position + shift
                return o
            }
            let a = try solver.solve(observations)
            let b = try solver.solve(moved)
            #expect(abs(b.position.x - a.position.x - shift.x) < 1e-7)
            #expect(abs(b.position.y - a.position.y - shift.y) < 1e-7)
            #expect(abs(b.covariance.xx - a.covariance.xx) < 1e-7 * max(1, a.covariance.xx))
            #expect(a.rejectedBeacons == b.rejectedBeacons)
        }
    }

    @Test func fewerThanThreeBeaconsFallBack() throws {
        let truth = Point3D(x: 6, y: 5, z: Scene.receiverHeight)
        var solver = TrilaterationSolver()
        for count in 1...2 {
            let observations = Array(Scene.noiseFree(at: truth).prefix(count))
            let fix = try solver.solve(observations)
            #expect(fix.status == .fallback(.tooFewBeacons(available: count, required: 3)))
            #expect(fix.position.x.isFinite && fix.position.y.isFinite && fix.covariance.isFinite)
            #expect(fix.gdop == .infinity)
            // The 1-σ radius covers the real error: the phone is somewhere on a range shell.
            let error = Scene.horizontalError(fix, truth)
            #expect(fix.accuracy >= error)
            #expect(fix.accuracy >= 3)
        }
        // One beacon: centred on it, radius ≈ the horizontal range.
        let one = try solver.solve(Array(Scene.noiseFree(at: truth).prefix(1)))
        #expect(one.position.planar == Scene.anchors[0].planar)
        let horizontal = truth.planar.distance(to: Scene.anchors[0].planar)
        #expect(abs(one.accuracy - horizontal) < 0.15 * horizontal)
    }

    @Test func threeBeaconsAreTooFewInSpace() throws {
        let truth = Point3D(x: 6, y: 5, z: 1.2)
        var solver = TrilaterationSolver(configuration: .init(dimension: .spatial))
        let fix = try solver.solve(Array(Scene.noiseFree(at: truth).prefix(3)))
        #expect(fix.status == .fallback(.tooFewBeacons(available: 3, required: 4)))
        #expect(fix.covariance.zz > 0 && fix.covariance.isFinite)
    }

    @Test func coincidentBeaconsFallBack() throws {
        let spot = Point3D(x: 3, y: 3, z: 2.6)
        let truth = Point3D(x: 8, y: 3, z: 1.2)
        var solver = TrilaterationSolver()
        let fix = try solver.solve(Scene.noiseFree(at: truth, planned: [spot, spot, spot, spot]))
        #expect(fix.status == .fallback(.coincidentBeacons))
        #expect(fix.accuracy >= Scene.horizontalError(fix, truth))
    }

    @Test(arguments: [TrilaterationSolver.LinearSolver.automatic, .normalEquations, .householderQR])
    func collinearBeaconsStayOnTheDeterminedAxis(linearSolver: TrilaterationSolver.LinearSolver) throws {
        let line = (0..<5).map { Point3D(x: 2 + 5 * Double($0), y: 5, z: 2.6) }
        var solver = TrilaterationSolver(configuration: .init(linearSolver: linearSolver))
        // On the line: exact along it, zero across.
        let onLine = Point3D(x: 9.3, y: 5, z: 1.2)
        let a = try solver.solve(Scene.noiseFree(at: onLine, planned: line))
        #expect(a.status == .degenerate(rank: 1))
        #expect(abs(a.position.x - 9.3) < 1e-6)
        #expect(abs(a.position.y - 5) < 1e-9)
        // Off the line by 4 m: the position stays on the line (the side is unknowable) and
        // the covariance across it covers the offset; along it the estimate is close.
        let offLine = Point3D(x: 9.3, y: 9, z: 1.2)
        let b = try solver.solve(Scene.noiseFree(at: offLine, planned: line))
        #expect(b.status == .degenerate(rank: 1))
        #expect(abs(b.position.y - 5) < 1e-9)
        #expect(abs(b.position.x - 9.3) < 1e-6)
        #expect(b.covariance.yy >= 16)
        #expect(b.covariance.xx < b.covariance.yy / 4)
        #expect(abs(abs(b.ellipse.orientation) - Double.pi / 2) < 0.1)
        #expect(b.position.x.isFinite && b.accuracy.isFinite && b.gdop == .infinity)
    }

    @Test func coplanarBeaconsInSpaceReportRankTwo() throws {
        var solver = TrilaterationSolver(configuration: .init(dimension: .spatial))
        let fix = try solver.solve(Scene.noiseFree(at: Point3D(x: 8, y: 6, z: 1.2)))
        #expect(fix.status == .degenerate(rank: 2))
        #expect(abs(fix.position.z - 2.6) < 1e-9)
        #expect(fix.covariance.zz.squareRoot() > 1)
        #expect(abs(fix.position.x - 8) < 1e-6 && abs(fix.position.y - 6) < 1e-6)
        #expect(fix.covariance.zz >= 1.4 * 1.4)
    }

    @Test func invalidInputThrowsTypedErrors() {
        var solver = TrilaterationSolver()
        let good = Scene.noiseFree(at: Point3D(x: 5, y: 5, z: 1.2))
        #expect(throws: TrilaterationError.noObservations) { try solver.solve([]) }
        var nan = good
        nan[2].meanRSSI = .nan
        #expect(throws: TrilaterationError.nonFiniteRSSI(Scene.identity(2))) { try solver.solve(nan) }
        var infinite = good
        infinite[1].meanRSSI = -.infinity
        #expect(throws: TrilaterationError.nonFiniteRSSI(Scene.identity(1))) { try solver.solve(infinite) }
        var positive = good
        positive[3].meanRSSI = 12
        #expect(throws: TrilaterationError.positiveRSSI(Scene.identity(3), rssi: 12)) { try solver.solve(positive) }
        var zeroCount = good
        zeroCount[0].count = 0
        #expect(throws: TrilaterationError.invalidSampleCount(Scene.identity(0), count: 0)) {
            try solver.solve(zeroCount)
        }
        var badModel = good
        badModel[4].model.sigma = 0
        #expect(throws: TrilaterationError.invalidModel(Scene.identity(4))) { try solver.solve(badModel) }
        var badPosition = good
        badPosition[5].position.y = .nan
        #expect(throws: TrilaterationError.nonFinitePosition(Scene.identity(5))) { try solver.solve(badPosition) }
        var badConfiguration = TrilaterationSolver(configuration: .init(dimension: .planar(receiverHeight: .nan)))
        #expect(throws: TrilaterationError.self) { try badConfiguration.solve(good) }
        // The caller's fix is untouched by a throwing solve.
        var fix = Fix()
        #expect(throws: TrilaterationError.self) { try solver.solve(nan, into: &fix) }
        #expect(fix.status == .fallback(.unsolved))
    }

    @Test func extremeButValidInputNeverGivesNaN() throws {
        var solver = TrilaterationSolver()
        var g = SeededGenerator(seed: 9)
        for _ in 0..<200 {
            var observations = Scene.noiseFree(at: Scene.randomPoint(&g))
            for k in observations.indices {
                observations[k].meanRSSI = -Double.random(in: 0...130, using: &g)
                observations[k].count = Int.random(in: 1...50, using: &g)
            }
            let fix = try solver.solve(observations)
            #expect(fix.position.isFiniteCoordinate && fix.covariance.isFinite && fix.accuracy.isFinite)
            #expect(fix.residualRMS.isFinite && !fix.gdop.isNaN && !fix.ellipse.orientation.isNaN)
        }
    }

    @Test func outlineKeepsTheFixInside() throws {
        // The phone stands outside a 10 × 16 m outline: the fix is moved onto its boundary.
        let outline = Polygon([Point2D(x: 0, y: 0), Point2D(x: 10, y: 0), Point2D(x: 10, y: 16), Point2D(x: 0, y: 16)])
        var solver = TrilaterationSolver(configuration: .init(outline: outline))
        let fix = try solver.solve(Scene.noiseFree(at: Point3D(x: 15, y: 8, z: 1.2)))
        #expect(fix.constrainedToOutline)
        #expect(outline.contains(fix.position.planar))
        #expect(abs(fix.position.x - 10) < 1e-9 && abs(fix.position.y - 8) < 1e-6)
        // Noisy fixes near the wall all end up inside.
        var constrained = TrilaterationSolver(configuration: .init(outline: Scene.outline))
        var g = SeededGenerator(seed: 5)
        var moved = 0
        for _ in 0..<100 {
            let truth = Point3D(
                x: Double.random(in: 22.5...23.5, using: &g), y: Double.random(in: 1...15, using: &g), z: 1.2)
            var noise: SeededGenerator? = g
            let observations = Scene.observe(at: truth, generator: &noise)
            g = noise!
            let f = try constrained.solve(observations)
            #expect(Scene.outline.contains(f.position.planar))
            if f.constrainedToOutline { moved += 1 }
        }
        #expect(moved > 0)
    }

    /// The hand-written 2×2/3×3 path and the LAPACK paths give the same fix to 1e-9 when they
    /// run the same iteration: Newton-damped steps (hand vs `dposv`), and Gauss–Newton steps
    /// (hand vs `dposv` vs `dgels`, which works on the Jacobian and has no Newton form).
    @Test(arguments: [true, false])
    func handAndLAPACKPathsAgree(secondOrder: Bool) throws {
        let tight = TrilaterationSolver.Configuration(
            usesSecondOrder: secondOrder, maximumIterations: 500,
            stepTolerance: 1e-10)
        var hand = TrilaterationSolver(configuration: tight)
        var dposv = hand, dgels = hand
        dposv.configuration.linearSolver = .normalEquations
        dgels.configuration.linearSolver = .householderQR
        var g = SeededGenerator(seed: 6)
        var compared = 0, unconverged = 0
        for dimension in [TrilaterationSolver.Dimension.planar(receiverHeight: 1.2), .spatial] {
            hand.configuration.dimension = dimension
            dposv.configuration.dimension = dimension
            dgels.configuration.dimension = dimension
            let beacons = Scene.anchors.enumerated().map { k, p in
                Point3D(x: p.x, y: p.y, z: k.isMultiple(of: 2) ? 2.6 : 0.4)
            }
            for _ in 0..<100 {
                let truth = Scene.randomPoint(&g)
                var noise: SeededGenerator? = g
                let observations = Scene.observe(at: truth, planned: beacons, generator: &noise)
                g = noise!
                let a = try hand.solve(observations)
                var others = [try dposv.solve(observations)]
                if !secondOrder { others.append(try dgels.solve(observations)) }
                compared += 1
                // Gauss–Newton crawls where residuals are large; compare converged runs.
                if others.contains(where: { $0.status != .converged }) || a.status != .converged {
                    unconverged += 1
                    continue
                }
                for other in others {
                    #expect(a.position.distance(to: other.position) < 1e-9)
                    #expect(abs(a.covariance.xx - other.covariance.xx) < 1e-9)
                    #expect(abs(a.covariance.xy - other.covariance.xy) < 1e-9)
                    #expect(abs(a.covariance.yy - other.covariance.yy) < 1e-9)
                    #expect(abs(a.covariance.zz - other.covariance.zz) < 1e-9)
                    #expect(abs(a.ellipse.semiMajor - other.ellipse.semiMajor) < 1e-9)
                    #expect(abs(a.ellipse.semiMinor - other.ellipse.semiMinor) < 1e-9)
                    #expect(abs(sin(a.ellipse.orientation - other.ellipse.orientation)) < 1e-6)
                    #expect(a.status == other.status)
                    #expect(a.rejectedBeacons.map(\.identity) == other.rejectedBeacons.map(\.identity))
                }
            }
        }
        // Newton steps converge everywhere; Gauss–Newton stalls above 1e-10 m in some 3D fixes.
        #expect(secondOrder ? unconverged == 0 : unconverged * 2 < compared)
        print("paths compared: \(compared - unconverged) of \(compared) (second order: \(secondOrder))")
    }

    @Test func smallSystemMatchesLAPACK() throws {
        var g = SeededGenerator(seed: 7)
        for order in 1...3 {
            for _ in 0..<50 {
                var m = SmallSymmetricMatrix(order: order)
                for _ in 0..<(order + 2) {
                    let v = SIMD3(g.gaussian(), g.gaussian(), g.gaussian())
                    m.addOuter(v, weight: 1)
                }
                let b = SIMD3(g.gaussian(), g.gaussian(), g.gaussian())
                let x = try #require(m.solve(b))
                var a = Matrix(rows: order, columns: order)
                var rhs = Matrix(rows: order, columns: 1)
                for j in 0..<order {
                    for i in 0..<order { a[i, j] = m[i, j] }
                    rhs[j, 0] = b[j]
                }
                try LAPACK.solveSPD(&a, &rhs)
                for i in 0..<order { #expect(abs(x[i] - rhs[i, 0]) < 1e-9 * max(1, abs(x[i]))) }
            }
        }
    }

    @Test func chiSquareQuantilesMatchTables() {
        // Upper 1 % quantiles: χ²(1) 6.635, χ²(5) 15.086, χ²(6) 16.812, χ²(20) 37.566.
        for (k, table) in [(1, 6.635), (5, 15.086), (6, 16.812), (20, 37.566)] {
            let q = ChiSquare.upperQuantile(significance: 0.01, degrees: k)
            #expect(abs(q / table - 1) < 0.03)
        }
        #expect(abs(StandardNormal.upperQuantile(0.01) - 2.326347874) < 1e-8)
    }

    @Test func ellipseOfKnownCovariance() {
        let e = ErrorEllipse(horizontalOf: PositionCovariance(xx: 4, xy: 0, yy: 1))
        #expect(abs(e.semiMajor - 2) < 1e-12 && abs(e.semiMinor - 1) < 1e-12 && abs(e.orientation) < 1e-12)
        let rotated = ErrorEllipse(horizontalOf: PositionCovariance(xx: 2.5, xy: 1.5, yy: 2.5))
        #expect(abs(rotated.semiMajor - 2) < 1e-12 && abs(rotated.semiMinor - 1) < 1e-12)
        #expect(abs(rotated.orientation - Double.pi / 4) < 1e-12)
    }
}
