import Foundation
import FuzzSupport
import IndoorPositioning

/// The engine's tracker (a bank of augmented trackers with device offset and shadowing-bias
/// states) on random runs: epoch updates of keyed samples at random times (backwards, equal,
/// long gaps), floor changes, verifications that may restart it, predictions. Each call either
/// throws a `TrackingError` or updates; after either the estimate is finite, the horizontal
/// covariance positive-definite, the weights a probability vector and the offset finite.
func fuzz(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    var input = FuzzInput(data, count: count)
    var configuration = TrackerConfiguration()
    configuration.accelerationDensity = input.double(in: 0.001...20)
    if input.byte() & 1 == 1 { configuration.velocityCorrelationTime = nil }
    if input.byte() & 1 == 1 { configuration.motionModes = MotionModes() }
    configuration.recordsHistory = input.byte() & 1 == 1
    let offset = input.byte() & 1 == 1 ? DeviceOffsetModel.fixed(input.mostly(in: -10...10)) : DeviceOffsetModel()
    let shadowing = ShadowingModel(
        correlatedShare: input.double(in: 0...0.9), correlationTime: input.double(in: 0.1...60),
        maximumStates: Int(input.byte() % 6))
    var time = input.double(in: -1e4...1e4)
    let first = PositionMeasurement(
        time: time, position: Point2D(x: input.double(in: -50...50), y: input.double(in: -50...50)),
        sigma: input.double(in: 0.01...20))
    guard
        var bank = try? TrackerBank(
            first: first, configuration: configuration, offset: offset,
            shadowing: [.independent, shadowing], floorElevation: input.mostly(in: -5...20))
    else { return 0 }
    var steps = 0
    while !input.isEmpty && steps < 300 {
        steps += 1
        let before = bank.time
        let op = input.byte() % 5
        switch input.byte() % 8 {
        case 0: time += input.double(in: 0...1e6)
        case 1: time -= input.double(in: 0...5)
        case 2: time = input.rawDouble()
        default: time += input.double(in: 0...2)
        }
        let model = PathLossModel(
            measuredPower: input.mostly(in: -90...(-40)), exponent: input.mostly(in: 1...5),
            sigma: input.mostly(in: 0.5...10))
        var threw = false
        do {
            switch op {
            case 0, 1:
                var batch: [RSSIMeasurement] = []
                for k in 0..<Int(input.byte() % 16) {
                    let beacon = Point3D(
                        x: input.mostly(in: -40...40), y: input.mostly(in: -40...40), z: input.mostly(in: 0...4))
                    batch.append(
                        RSSIMeasurement(
                            time: time - Double(k) * 0.05, beaconPosition: beacon, model: model,
                            rssi: input.mostly(in: -120...(-30)), beaconKey: Int(input.byte() % 10)))
                }
                _ = try bank.update(batch, at: time)
            case 2:
                try bank.changeLevel(
                    to: Int(input.byte() % 4), elevation: input.mostly(in: -10...30), outline: nil, at: time)
            case 3:
                _ = try bank.verify(
                    against: PositionMeasurement(
                        time: time, position: Point2D(x: input.mostly(in: -60...60), y: input.mostly(in: -60...60)),
                        sigma: input.mostly(in: 0.01...30)))
            default:
                let e = try bank.estimate(at: time)
                require([e.position.x, e.position.y, e.accuracy].allSatisfy(\.isFinite), "non-finite prediction \(e)")
            }
        } catch {
            threw = true
            _ = String(describing: error)
        }
        if threw { require(bank.time >= before, "a throwing call moved the bank back in time (operation \(op))") }
        let e = bank.estimate
        require(
            [e.time, e.position.x, e.position.y, e.velocity.x, e.velocity.y, e.accuracy].allSatisfy(\.isFinite),
            "non-finite estimate \(e) after operation \(op)")
        require(
            isPositiveDefinite(xx: e.covarianceXX, xy: e.covarianceXY, yy: e.covarianceYY),
            "horizontal covariance not positive-definite after operation \(op): \(e)")
        require(
            abs(bank.weights.reduce(0, +) - 1) < 1e-9 && bank.weights.allSatisfy { $0 >= 0 && $0.isFinite },
            "weights \(bank.weights) are not a probability vector after operation \(op)")
        require(
            bank.deviceOffset.isFinite && bank.deviceOffsetVariance.isFinite && bank.deviceOffsetVariance >= 0,
            "offset \(bank.deviceOffset) ± \(bank.deviceOffsetVariance) after operation \(op)")
        for member in bank.members {
            let p = member.covariance
            for i in 0..<p.size {
                require(
                    p[i, i] > 0 && p[i, i].isFinite,
                    "covariance diagonal \(i) of a member not positive after operation \(op)")
                for j in 0..<i {
                    require(
                        abs(p[i, j] - p[j, i]) <= 1e-9 * max(1, abs(p[i, j])),
                        "asymmetric member covariance after operation \(op)")
                }
            }
        }
    }
    return 0
}

@_cdecl("FuzzTrackerBank_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv) { data, count in fuzz(data!, count) }
}
