import BeaconModel
import Foundation
import Ranging

/// The baseline a competent developer would build without this library, as a reference for
/// accuracy tests: per 1-s window, the mean RSSI per beacon → distance by inverting the
/// log-distance model → Gauss–Newton least squares on the ranges (weights 1/σ_d², σ_d the range
/// error the model predicts, ∝ d, so about 1/d²) with the receiver height fixed → a
/// constant-velocity Kalman filter (q = 0.2 m²/s³) on the fixes with R = (1.5 m)² per axis, each
/// fix stamped at its window's end. ``fixSigma`` and ``stampsAtWindowEnd`` make it stronger.
public struct CommonPipeline: Sendable {
    /// A least-squares fix: position (m), covariance (m²), and the window's centre time (s).
    public struct Fix: Sendable, Hashable {
        public var time: Double
        public var position: Point2D
        public var covarianceXX: Double
        public var covarianceXY: Double
        public var covarianceYY: Double
    }

    /// One output: the filtered position at an epoch's end (s, m).
    public struct Output: Sendable, Hashable {
        public var time: Double
        public var position: Point2D
    }

    public var beacons: [Point3D]
    public var model: PathLossModel
    public var receiverHeight: Double
    /// Acceleration spectral density of the baseline's Kalman filter, m²/s³.
    public var accelerationDensity: Double
    /// Window length, seconds.
    public var window: Double = 1
    /// Standard deviation of a fix per axis given to the Kalman filter as R, metres; nil uses
    /// each fix's least-squares covariance instead (a stronger baseline than users usually build).
    public var fixSigma: Double? = 1.5
    /// Whether each fix is stamped at its window's end, as a pipeline that positions "the last
    /// second" does (default); false stamps it at the window's centre and predicts to the end,
    /// which removes the half-window lag (a stronger baseline than users usually build).
    public var stampsAtWindowEnd = true
    /// Whether the least squares weighs ranges equally (true) instead of by 1/σ_d² ∝ 1/d².
    public var unweighted = false

    public init(beacons: [Point3D], model: PathLossModel, receiverHeight: Double, accelerationDensity: Double = 0.2) {
        self.beacons = beacons
        self.model = model
        self.receiverHeight = receiverHeight
        self.accelerationDensity = accelerationDensity
    }

    /// The least-squares fix from one window's samples (nil with fewer than 3 beacons heard).
    public func fix(
        _ samples: some Collection<WalkSimulator.Sample>, windowStart: Double,
        start: Point2D? = nil
    ) -> Fix? {
        var sum = [Double](repeating: 0, count: beacons.count)
        var count = [Int](repeating: 0, count: beacons.count)
        for s in samples {
            sum[s.beacon] += s.rssi
            count[s.beacon] += 1
        }
        var used: [(b: Point3D, range: Double, weight: Double)] = []
        let k = model.logSlope
        for i in beacons.indices where count[i] > 0 {
            let mean = sum[i] / Double(count[i])
            let range = Foundation.exp((model.measuredPower - mean) / k)
            // Range error of a mean of m samples: d · σ / (k √m).
            let sigmaRange = max(range * model.sigma / (k * Double(count[i]).squareRoot()), 0.1)
            used.append((beacons[i], range, unweighted ? 1 : 1 / (sigmaRange * sigmaRange)))
        }
        guard used.count >= 3 else { return nil }
        // Start: the previous fix, else the centroid weighted by 1/range².
        var x: Point2D
        if let start {
            x = start
        } else {
            var wx = 0.0, wy = 0.0, ws = 0.0
            for u in used {
                let w = 1 / max(u.range * u.range, 0.01)
                wx += w * u.b.x
                wy += w * u.b.y
                ws += w
            }
            x = Point2D(x: wx / ws, y: wy / ws)
        }
        var info = (xx: 0.0, xy: 0.0, yy: 0.0)
        for _ in 0..<20 {
            var a = (xx: 0.0, xy: 0.0, yy: 0.0)
            var g = (x: 0.0, y: 0.0)
            for u in used {
                let dx = x.x - u.b.x, dy = x.y - u.b.y, dz = receiverHeight - u.b.z
                let d = max((dx * dx + dy * dy + dz * dz).squareRoot(), 0.01)
                let jx = dx / d, jy = dy / d
                let r = u.range - d
                a.xx += u.weight * jx * jx
                a.xy += u.weight * jx * jy
                a.yy += u.weight * jy * jy
                g.x += u.weight * jx * r
                g.y += u.weight * jy * r
            }
            info = a
            let det = a.xx * a.yy - a.xy * a.xy
            guard det > 1e-12 else { break }
            let stepX = (a.yy * g.x - a.xy * g.y) / det
            let stepY = (a.xx * g.y - a.xy * g.x) / det
            x = Point2D(x: x.x + stepX, y: x.y + stepY)
            if stepX * stepX + stepY * stepY < 1e-8 { break }
        }
        let det = info.xx * info.yy - info.xy * info.xy
        guard det > 1e-12, x.x.isFinite, x.y.isFinite else { return nil }
        return Fix(
            time: windowStart + (stampsAtWindowEnd ? window : window / 2), position: x,
            covarianceXX: info.yy / det, covarianceXY: -info.xy / det, covarianceYY: info.xx / det)
    }

    /// Runs the pipeline over a simulated walk: one output per window end (window, 2 window, …).
    public func run(_ walk: WalkSimulator) -> (fixes: [Fix], outputs: [Output]) {
        var fixes: [Fix] = []
        var outputs: [Output] = []
        var kf: PlainKalman?
        var start = 0.0
        while start + window <= walk.configuration.duration + 1e-9 {
            let samples = walk.samples(from: start, to: start + window)
            if let f = fix(samples, windowStart: start, start: kf?.position ?? fixes.last?.position) {
                fixes.append(f)
                var r = f
                if let fixSigma {
                    r.covarianceXX = fixSigma * fixSigma
                    r.covarianceXY = 0
                    r.covarianceYY = fixSigma * fixSigma
                }
                if kf == nil {
                    kf = PlainKalman(fix: r)
                } else {
                    kf!.predict(to: r.time, q: accelerationDensity)
                    kf!.update(r)
                }
            }
            if var k = kf {
                k.predict(to: start + window, q: accelerationDensity)
                outputs.append(Output(time: start + window, position: k.position))
            }
            start += window
        }
        return (fixes, outputs)
    }
}

/// A textbook constant-velocity Kalman filter on position fixes (the baseline's; plain arrays).
struct PlainKalman {
    var t: Double
    var x: [Double]
    var p: [[Double]]

    init(fix f: CommonPipeline.Fix) {
        t = f.time
        x = [f.position.x, f.position.y, 0, 0]
        p = [
            [f.covarianceXX, f.covarianceXY, 0, 0], [f.covarianceXY, f.covarianceYY, 0, 0],
            [0, 0, 1, 0], [0, 0, 0, 1]
        ]
    }

    var position: Point2D { Point2D(x: x[0], y: x[1]) }

    mutating func predict(to time: Double, q: Double) {
        let dt = time - t
        guard dt > 0 else { return }
        t = time
        var f = [[Double]](repeating: [0, 0, 0, 0], count: 4)
        for i in 0..<4 { f[i][i] = 1 }
        f[0][2] = dt
        f[1][3] = dt
        x = (0..<4).map { i in (0..<4).reduce(0) { $0 + f[i][$1] * x[$1] } }
        let fp = (0..<4).map { i in (0..<4).map { j in (0..<4).reduce(0) { $0 + f[i][$1] * p[$1][j] } } }
        p = (0..<4).map { i in (0..<4).map { j in (0..<4).reduce(0) { $0 + fp[i][$1] * f[j][$1] } } }
        let a = q * dt * dt * dt / 3, b = q * dt * dt / 2, c = q * dt
        p[0][0] += a
        p[1][1] += a
        p[2][2] += c
        p[3][3] += c
        p[0][2] += b
        p[2][0] += b
        p[1][3] += b
        p[3][1] += b
    }

    mutating func update(_ f: CommonPipeline.Fix) {
        let s00 = p[0][0] + f.covarianceXX, s01 = p[0][1] + f.covarianceXY, s11 = p[1][1] + f.covarianceYY
        let det = s00 * s11 - s01 * s01
        guard det > 0 else { return }
        let i00 = s11 / det, i01 = -s01 / det, i11 = s00 / det
        let nu = [f.position.x - x[0], f.position.y - x[1]]
        var k = [[Double]](repeating: [0, 0], count: 4)
        for i in 0..<4 {
            k[i][0] = p[i][0] * i00 + p[i][1] * i01
            k[i][1] = p[i][0] * i01 + p[i][1] * i11
        }
        for i in 0..<4 { x[i] += k[i][0] * nu[0] + k[i][1] * nu[1] }
        let old = p
        for i in 0..<4 {
            for j in 0..<4 {
                p[i][j] = old[i][j] - k[i][0] * old[0][j] - k[i][1] * old[1][j]
            }
        }
    }
}
