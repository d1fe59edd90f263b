import Foundation
import IndoorPositioning
import TestSupport
import Testing

/// Properties that must hold for every input, checked on seeded random scenes: symmetry of the
/// fix under moving the building, independence of sample order, exact recovery without noise,
/// a tracker covariance that stays symmetric positive-definite, and no NaN or infinity out of
/// finite input.
@Suite("Properties on random scenes")
struct PropertyTests {
    static let uuid = UUID(uuidString: "B1E5E0A1-7D2C-4C55-9A51-5D3E2C1A0B0C")!
    static let receiverHeight = PlanDefaults().receiverHeight

    /// A random scene: 4–8 beacons spread over a room of `size` metres around `origin`, at
    /// heights 0.5–3 m (closer to the receiver's in rooms under 1 m), and a truth inside; the beacons are checked to span the plane (no three
    /// nearly on a line is not required, but all of them on one is excluded).
    struct Scene {
        var beacons: [Point3D]
        var truth: Point2D
        var models: [PathLossModel]

        init(using rng: inout SeededGenerator, size: Double = 20, origin: Point2D = .zero) {
            repeat {
                let n = Int.random(in: 4...8, using: &rng)
                beacons = (0..<n).map { _ in
                    Point3D(
                        x: origin.x + size * Double.random(in: 0...1, using: &rng),
                        y: origin.y + size * Double.random(in: 0...1, using: &rng),
                        // 0.5–3 m high; in rooms under 1 m the heights shrink with the room.
                        z: PropertyTests.receiverHeight + min(size, 1) * Double.random(in: -0.7...1.8, using: &rng))
                }
            } while Self.spread(beacons) < 0.05 * size * size
            truth = Point2D(
                x: origin.x + size * Double.random(in: 0.1...0.9, using: &rng),
                y: origin.y + size * Double.random(in: 0.1...0.9, using: &rng))
            models = beacons.map { _ in
                PathLossModel(
                    measuredPower: Double.random(in: -75...(-55), using: &rng),
                    exponent: Double.random(in: 1.6...3.5, using: &rng), sigma: 4)
            }
        }

        /// The smaller eigenvalue of the beacons' planar scatter matrix (m²): zero on a line.
        static func spread(_ points: [Point3D]) -> Double {
            let n = Double(points.count)
            let mx = points.map(\.x).reduce(0, +) / n, my = points.map(\.y).reduce(0, +) / n
            var sxx = 0.0, sxy = 0.0, syy = 0.0
            for p in points {
                sxx += (p.x - mx) * (p.x - mx) / n
                sxy += (p.x - mx) * (p.y - my) / n
                syy += (p.y - my) * (p.y - my) / n
            }
            let mean = (sxx + syy) / 2, root = (((sxx - syy) / 2) * ((sxx - syy) / 2) + sxy * sxy).squareRoot()
            return mean - root
        }

        /// Observations with each beacon's mean RSSI: noise-free, or with `noise` dB added.
        func observations(noise: [Double]? = nil) -> [BeaconObservation] {
            beacons.indices.map { i in
                let b = beacons[i]
                let dx = truth.x - b.x, dy = truth.y - b.y, dz = PropertyTests.receiverHeight - b.z
                let rssi =
                    models[i].expectedRSSI(atDistance: (dx * dx + dy * dy + dz * dz).squareRoot()) + (noise?[i] ?? 0)
                return BeaconObservation(
                    identity: BeaconIdentity(uuid: PropertyTests.uuid, major: 1, minor: UInt16(i)),
                    position: b, level: 0, model: models[i], meanRSSI: min(rssi, -1), count: 5)
            }
        }

        /// The scene moved rigidly: rotated by `angle` about the origin, then shifted.
        func moved(angle: Double, shift: Point2D) -> Scene {
            var copy = self
            let c = Foundation.cos(angle), s = Foundation.sin(angle)
            func move(_ x: Double, _ y: Double) -> (Double, Double) {
                (c * x - s * y + shift.x, s * x + c * y + shift.y)
            }
            copy.beacons = beacons.map {
                let (x, y) = move($0.x, $0.y)
                return Point3D(x: x, y: y, z: $0.z)
            }
            let (tx, ty) = move(truth.x, truth.y)
            copy.truth = Point2D(x: tx, y: ty)
            return copy
        }
    }

    static func solverWithoutRejection() -> TrilaterationSolver {
        var configuration = TrilaterationSolver.Configuration()
        configuration.maximumRejections = 0
        return TrilaterationSolver(configuration: configuration)
    }

    @Test(
        "noise-free RSSI recovers the exact position (200 random scenes, rooms of 10 cm to 1 km, up to 100 km from the origin)"
    )
    func noiseFreeIsExact() throws {
        var rng = SeededGenerator(seed: 1001)
        var solver = TrilaterationSolver()
        for trial in 0..<200 {
            let size = Foundation.pow(10, Double.random(in: -1...3, using: &rng))
            let scene = Scene(
                using: &rng, size: size, origin: Point2D(x: Double.random(in: -1e5...1e5, using: &rng), y: 3))
            let fix = try solver.solve(scene.observations())
            #expect(fix.status.isDetermined, "trial \(trial)")
            let error = fix.position.planar.distance(to: scene.truth)
            #expect(error <= 1e-6 * max(1, size), "trial \(trial): size \(size) m, error \(error) m")
        }
    }

    @Test("the same scene at every scale: noise-free fixes scale with the room (1 cm … 1 km)")
    func scaleInvariance() throws {
        var rng = SeededGenerator(seed: 1002)
        var solver = TrilaterationSolver()
        let unit = Scene(using: &rng, size: 1)
        for exponent in -2...3 {
            let s = Foundation.pow(10, Double(exponent))
            var scene = unit
            scene.beacons = unit.beacons.map { Point3D(x: $0.x * s, y: $0.y * s, z: $0.z) }
            scene.truth = Point2D(x: unit.truth.x * s, y: unit.truth.y * s)
            let fix = try solver.solve(scene.observations())
            #expect(fix.position.planar.distance(to: scene.truth) <= 1e-6 * max(1, s), "scale \(s)")
            #expect(fix.accuracy.isFinite && fix.accuracy > 0)
            #expect(fix.covariance.xx * fix.covariance.yy > fix.covariance.xy * fix.covariance.xy)
        }
    }

    @Test("rotating and translating every beacon and the truth moves the fix the same way (noisy RSSI too)")
    func rigidMotionEquivariance() throws {
        var rng = SeededGenerator(seed: 1003)
        var solver = Self.solverWithoutRejection()
        for trial in 0..<150 {
            let scene = Scene(using: &rng)
            let noise = scene.beacons.map { _ in rng.gaussian(sigma: 4) }
            let angle = Double.random(in: -Double.pi...Double.pi, using: &rng)
            let shift = Point2D(
                x: Double.random(in: -1e4...1e4, using: &rng), y: Double.random(in: -1e4...1e4, using: &rng))
            let moved = scene.moved(angle: angle, shift: shift)
            let a = try solver.solve(scene.observations(noise: noise))
            let b = try solver.solve(moved.observations(noise: noise))
            let c = Foundation.cos(angle), s = Foundation.sin(angle)
            let expected = Point2D(
                x: c * a.position.x - s * a.position.y + shift.x, y: s * a.position.x + c * a.position.y + shift.y)
            #expect(b.position.planar.distance(to: expected) < 1e-4, "trial \(trial)")
            #expect(
                abs(b.accuracy - a.accuracy) < 1e-4 * max(1, a.accuracy),
                "trial \(trial): accuracy \(a.accuracy) vs \(b.accuracy)")
            #expect(a.status == b.status)
        }
    }

    @Test("permuting the beacons of a solve changes nothing")
    func permutationOfObservations() throws {
        var rng = SeededGenerator(seed: 1004)
        var solver = TrilaterationSolver()
        for trial in 0..<150 {
            let scene = Scene(using: &rng)
            let noise = scene.beacons.map { _ in rng.gaussian(sigma: 6) }
            let observations = scene.observations(noise: noise)
            let a = try solver.solve(observations)
            let b = try solver.solve(observations.shuffled(using: &rng))
            #expect(b.position.planar.distance(to: a.position.planar) < 1e-6, "trial \(trial)")
            #expect(Set(a.usedBeacons) == Set(b.usedBeacons))
            #expect(abs(a.accuracy - b.accuracy) < 1e-6 * max(1, a.accuracy))
        }
    }

    @Test(
        "permuting samples within an epoch (equal and unequal times) gives identical reports",
        arguments: [UInt64(1), 2, 3])
    func permutationWithinEpoch(seed: UInt64) throws {
        let site = try SimulatedSite(seed: seed)
        var rng = SeededGenerator(seed: seed &+ 500)
        let sorted = site.samples.sorted { $0.timestamp < $1.timestamp }
        // Quantise times to 0.25 s so that many samples share a timestamp, then shuffle within
        // each 1-s epoch [k, k + 1).
        let quantised = sorted.map { s -> RSSISample in
            var t = s
            t.timestamp = (s.timestamp * 4).rounded(.down) / 4
            return t
        }
        var shuffled: [RSSISample] = []
        for (_, group) in Dictionary(grouping: quantised, by: { $0.timestamp.rounded(.down) }).sorted(by: {
            $0.key < $1.key
        }) {
            shuffled += group.shuffled(using: &rng)
        }
        var configuration = PositioningEngine.Configuration()
        configuration.reorderDelay = 1
        func run(_ samples: [RSSISample]) throws -> [PositionReport] {
            var engine = try PositioningEngine(plan: site.plan, configuration: configuration)
            var reports: [PositionReport] = []
            for sample in samples {
                engine.push(sample)
                reports += engine.pull()
            }
            #expect(engine.statistics.late == 0)
            return reports + engine.finish()
        }
        let a = try run(quantised), b = try run(shuffled)
        #expect(a.count > 100)
        #expect(a == b)
    }

    @Test(
        "the tracker's covariance stays symmetric positive-definite over long random runs with gaps and floor changes",
        arguments: [UInt64(11), 12, 13, 14])
    func trackerCovariance(seed: UInt64) throws {
        var rng = SeededGenerator(seed: seed)
        var configuration = TrackerConfiguration()
        configuration.accelerationDensity = Double.random(in: 0.01...5, using: &rng)
        if seed % 2 == 0 { configuration.velocityCorrelationTime = nil }
        var tracker = try KalmanTracker(
            first: PositionMeasurement(time: 0, position: Point2D(x: 5, y: 5), sigma: 2),
            configuration: configuration)
        var time = 0.0
        var truth = Point2D(x: 5, y: 5)
        var refused = 0
        for step in 0..<5000 {
            // Mostly 0.05–0.5 s, sometimes a gap of minutes to hours.
            time +=
                rng.next() % 50 == 0
                ? Double.random(in: 60...36_000, using: &rng) : Double.random(in: 0.05...0.5, using: &rng)
            truth = Point2D(
                x: min(max(truth.x + rng.gaussian(sigma: 0.3), 0), 30),
                y: min(max(truth.y + rng.gaussian(sigma: 0.3), 0), 20))
            do {
                switch rng.next() % 10 {
                case 0:
                    try tracker.changeLevel(
                        to: Int(rng.next() % 3), elevation: Double(rng.next() % 3) * 3.5, outline: nil, at: time)
                case 1, 2:
                    try tracker.update(
                        PositionMeasurement(
                            time: time,
                            position: Point2D(x: truth.x + rng.gaussian(sigma: 2), y: truth.y + rng.gaussian(sigma: 2)),
                            sigma: Double.random(in: 0.3...8, using: &rng)))
                default:
                    let beacon = Point3D(
                        x: Double.random(in: 0...30, using: &rng), y: Double.random(in: 0...20, using: &rng), z: 2.5)
                    let model = PathLossModel(measuredPower: -60, exponent: 2.2, sigma: 4)
                    let d =
                        ((truth.x - beacon.x) * (truth.x - beacon.x) + (truth.y - beacon.y) * (truth.y - beacon.y)
                        + 1.69).squareRoot()
                    // One sample in 20 is a gross outlier.
                    let rssi = model.expectedRSSI(atDistance: d) + (rng.next() % 20 == 0 ? -35 : rng.gaussian(sigma: 4))
                    try tracker.update(
                        RSSIMeasurement(time: time, beaconPosition: beacon, model: model, rssi: min(rssi, -1)))
                }
            } catch {
                refused += 1
            }
            let p = tracker.covariance
            for i in 0..<4 {
                for j in 0..<4 {
                    #expect(p[i, j].isFinite)
                    #expect(p[i, j] == p[j, i], "step \(step): asymmetric (\(i), \(j))")
                }
            }
            // Positive-definite: every leading minor of the Cholesky factorisation is positive.
            var l = [[Double]](repeating: [Double](repeating: 0, count: 4), count: 4)
            for j in 0..<4 {
                var d = p[j, j]
                for k in 0..<j { d -= l[j][k] * l[j][k] }
                #expect(d > 0, "step \(step): not positive-definite, pivot \(j) = \(d)")
                guard d > 0 else { return }
                l[j][j] = d.squareRoot()
                for i in (j + 1)..<4 {
                    var v = p[i, j]
                    for k in 0..<j { v -= l[i][k] * l[j][k] }
                    l[i][j] = v / l[j][j]
                }
            }
            let e = tracker.estimate
            #expect(e.position.x.isFinite && e.position.y.isFinite && e.accuracy.isFinite)
        }
        #expect(refused < 100)
    }

    @Test("no public API returns a non-finite number for finite input: random engine runs, solves and filters")
    func finiteOutputs() throws {
        var rng = SeededGenerator(seed: 1006)
        // The engine on random plans and wild but finite samples.
        for trial in 0..<40 {
            let scene = Scene(using: &rng, size: Foundation.pow(10, Double.random(in: -1...3, using: &rng)))
            let beacons = scene.beacons.indices.map {
                Beacon(
                    identity: BeaconIdentity(uuid: Self.uuid, major: 1, minor: UInt16($0)), position: scene.beacons[$0])
            }
            let plan = try FloorPlan(name: "random", floors: [Floor(level: 0, beacons: beacons)])
            var engine = try PositioningEngine(plan: plan)
            var time = Double.random(in: -1e9...1e9, using: &rng)
            for _ in 0..<400 {
                time +=
                    rng.next() % 40 == 0
                    ? Double.random(in: -5...1e5, using: &rng) : Double.random(in: 0...0.3, using: &rng)
                let rssi =
                    rng.next() % 10 == 0
                    ? Double.random(in: -1e6...1e6, using: &rng) : Double.random(in: -110...(-30), using: &rng)
                engine.push(
                    RSSISample(
                        timestamp: time, identity: beacons[Int(rng.next() % UInt64(beacons.count))].identity, rssi: rssi
                    ))
                for report in engine.pull() {
                    #expect(
                        report.position.x.isFinite && report.position.y.isFinite && report.position.z.isFinite,
                        "trial \(trial)")
                    #expect(report.accuracy.isFinite && report.accuracy > 0, "trial \(trial)")
                }
            }
            #expect(
                engine.finish().allSatisfy { $0.position.x.isFinite && $0.position.y.isFinite && $0.accuracy.isFinite })
        }
        // The solver on random finite observations, extreme ones included.
        var solver = TrilaterationSolver()
        for trial in 0..<500 {
            let n = Int.random(in: 1...8, using: &rng)
            let observations = (0..<n).map { i in
                BeaconObservation(
                    identity: BeaconIdentity(uuid: Self.uuid, major: 1, minor: UInt16(i)),
                    position: Point3D(
                        x: Double.random(in: -1e6...1e6, using: &rng)
                            / Foundation.pow(10, Double.random(in: 0...8, using: &rng)),
                        y: Double.random(in: -10...10, using: &rng), z: Double.random(in: -5...5, using: &rng)),
                    level: 0,
                    model: PathLossModel(
                        measuredPower: Double.random(in: -200...50, using: &rng),
                        exponent: Double.random(in: 0.1...20, using: &rng),
                        sigma: Double.random(in: 0.01...100, using: &rng)),
                    meanRSSI: Double.random(in: -200...0, using: &rng), count: Int.random(in: 1...50, using: &rng))
            }
            guard let fix = try? solver.solve(observations) else { continue }
            let c = fix.covariance
            for value in [
                fix.position.x, fix.position.y, fix.position.z, fix.accuracy, fix.residualRMS, c.xx, c.xy, c.yy,
                fix.ellipse.semiMajor, fix.ellipse.semiMinor, fix.ellipse.orientation
            ] {
                #expect(value.isFinite, "trial \(trial): \(fix)")
            }
            #expect(!fix.gdop.isNaN)
        }
        // The RSSI filters.
        var kalman = RSSIKalmanFilter()
        var windowed = WindowedMeanFilter()
        var time = 0.0
        for _ in 0..<2000 {
            time += rng.next() % 50 == 0 ? 1e6 : Double.random(in: 0...0.5, using: &rng)
            let rssi = Double.random(in: -130...(-1), using: &rng)
            if let value = try? kalman.update(rssi: rssi, at: time) { #expect(value.isFinite) }
            if let value = try? windowed.update(rssi: rssi, at: time) { #expect(value.isFinite) }
        }
    }
}
