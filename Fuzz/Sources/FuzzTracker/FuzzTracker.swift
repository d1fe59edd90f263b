import Foundation
import FuzzSupport
import IndoorPositioning

/// The Kalman tracker on random runs: fixes, RSSI samples and epoch updates at random times
/// (backwards, equal, long gaps), floor changes and resets. Each call either throws a
/// `TrackingError` or updates; after either the state is finite and the covariance symmetric
/// positive-definite.
func fuzz(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    var input = FuzzInput(data, count: count)
    var configuration = TrackerConfiguration()
    configuration.accelerationDensity = input.double(in: 0.001...20)
    if input.byte() & 1 == 1 { configuration.velocityCorrelationTime = nil }
    if input.byte() & 1 == 1 {
        configuration.outline = Polygon([
            Point2D(x: -20, y: -20), Point2D(x: 30, y: -20), Point2D(x: 30, y: 25), Point2D(x: -20, y: 25)
        ])
    }
    var time = input.double(in: -1e4...1e4)
    let first = PositionMeasurement(
        time: time, position: Point2D(x: input.double(in: -50...50), y: input.double(in: -50...50)),
        sigma: input.double(in: 0.01...20))
    guard var tracker = try? KalmanTracker(first: first, configuration: configuration) else { return 0 }
    var steps = 0
    while !input.isEmpty && steps < 400 {
        steps += 1
        let before = tracker
        let op = input.byte() % 6
        // Time steps: mostly forward, sometimes a long gap, sometimes backwards or raw.
        switch input.byte() % 8 {
        case 0: time += input.double(in: 0...1e6)
        case 1: time -= input.double(in: 0...5)
        case 2: time = input.rawDouble()
        default: time += input.double(in: 0...2)
        }
        let beacon = Point3D(x: input.mostly(in: -40...40), y: input.mostly(in: -40...40), z: input.mostly(in: 0...4))
        let model = PathLossModel(
            measuredPower: input.mostly(in: -90...(-40)), exponent: input.mostly(in: 1...5),
            sigma: input.mostly(in: 0.5...10))
        var threw = false
        do {
            switch op {
            case 0:
                _ = try tracker.update(
                    PositionMeasurement(
                        time: time, x: input.mostly(in: -60...60), y: input.mostly(in: -60...60),
                        covarianceXX: input.mostly(in: 0...100), covarianceXY: input.mostly(in: -10...10),
                        covarianceYY: input.mostly(in: 0...100)))
            case 1:
                _ = try tracker.update(
                    RSSIMeasurement(
                        time: time, beaconPosition: beacon, model: model, rssi: input.mostly(in: -120...(-30))))
            case 2:
                var batch: [RSSIMeasurement] = []
                for k in 0..<Int(input.byte() % 12) {
                    batch.append(
                        RSSIMeasurement(
                            time: time - Double(k) * 0.05,
                            beaconPosition: beacon + Point3D(x: Double(k), y: -Double(k), z: 0),
                            model: model, rssi: input.mostly(in: -120...(-30))))
                }
                _ = try tracker.update(batch, at: time)
            case 3:
                try tracker.changeLevel(
                    to: Int(input.byte() % 4), elevation: input.mostly(in: -10...30), outline: nil, at: time)
            case 4:
                _ = try tracker.verify(
                    against: PositionMeasurement(
                        time: time, position: Point2D(x: input.mostly(in: -60...60), y: input.mostly(in: -60...60)),
                        sigma: input.mostly(in: 0.01...30)))
            default:
                try tracker.predict(to: time)
            }
        } catch {
            threw = true
            _ = String(describing: error)
        }
        // A throw may leave the tracker predicted to the new time (the prediction is committed
        // before the update is tried) but never moves it back in time; the invariants below hold
        // either way.
        if threw {
            require(tracker.time >= before.time, "a throwing call moved the tracker back in time (operation \(op))")
        }
        let e = tracker.estimate
        require(
            [e.time, e.position.x, e.position.y, e.velocity.x, e.velocity.y, e.accuracy].allSatisfy(\.isFinite),
            "non-finite estimate \(e) after operation \(op)")
        let p = tracker.covariance
        for i in 0..<4 {
            for j in 0..<4 {
                require(p[i, j].isFinite, "non-finite covariance entry (\(i), \(j)) after operation \(op)")
                require(
                    abs(p[i, j] - p[j, i]) <= 1e-9 * max(1, abs(p[i, j])),
                    "asymmetric covariance after operation \(op): \(p)")
            }
            require(p[i, i] > 0, "covariance diagonal \(i) not positive after operation \(op): \(p)")
        }
        require(
            isPositiveDefinite(xx: e.covarianceXX, xy: e.covarianceXY, yy: e.covarianceYY),
            "horizontal covariance not positive-definite after operation \(op): \(p)")
    }
    return 0
}

@_cdecl("FuzzTracker_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv) { data, count in fuzz(data!, count) }
}
