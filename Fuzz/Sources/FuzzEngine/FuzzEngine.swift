import Foundation
import FuzzSupport
import IndoorPositioning

private let uuid = UUID(uuidString: "B1E5E0A1-7D2C-4C55-9A51-5D3E2C1A0B0C")!

/// The whole engine on random plans and sample streams (times backwards, equal, huge, with long
/// gaps; RSSI of any bit pattern; unknown beacons; several devices and floors): it never hangs
/// or crashes, and every report is finite with a positive accuracy.
func fuzz(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    var input = FuzzInput(data, count: count)
    let floors = Int(input.byte() % 2) + 1
    var plannedFloors: [Floor] = []
    for level in 0..<floors {
        var beacons: [Beacon] = []
        for i in 0..<(Int(input.byte() % 8) + 1) {
            beacons.append(
                Beacon(
                    identity: BeaconIdentity(uuid: uuid, major: UInt16(level), minor: UInt16(i)),
                    position: Point3D(
                        x: input.double(in: 0...30), y: input.double(in: 0...20), z: input.double(in: 0...3))))
        }
        let outline = Polygon([Point2D(x: 0, y: 0), Point2D(x: 30, y: 0), Point2D(x: 30, y: 20), Point2D(x: 0, y: 20)])
        plannedFloors.append(Floor(level: level, elevation: Double(level) * 3.5, outline: outline, beacons: beacons))
    }
    guard let plan = try? FloorPlan(name: "fuzz", floors: plannedFloors) else { return 0 }
    var configuration = PositioningEngine.Configuration()
    configuration.epoch = input.double(in: 0.01...5)
    configuration.reorderDelay = input.double(in: 0...2)
    if input.byte() & 1 == 1 { configuration.tracking = .none }
    configuration.recordsHistory = input.byte() & 1 == 1
    guard var engine = try? PositioningEngine(plan: plan, configuration: configuration) else { return 0 }
    var time = input.double(in: -1e10...1e10)
    var reports: [PositionReport] = []
    var pushed = 0
    while !input.isEmpty && pushed < 2000 {
        pushed += 1
        switch input.byte() % 16 {
        case 0: time += input.double(in: 0...1e7)
        case 1: time -= input.double(in: 0...3)
        case 2: time = input.rawDouble()
        case 3: time = input.double(in: -1e10...1e10)
        default: time += input.double(in: 0...0.5)
        }
        let rssi = input.byte() % 16 == 0 ? input.rawDouble() : input.double(in: -110...(-35))
        let sample = RSSISample(
            timestamp: time,
            identity: BeaconIdentity(uuid: uuid, major: UInt16(input.byte() % 3), minor: UInt16(input.byte() % 9)),
            rssi: rssi, device: input.byte() % 4 == 0 ? "b" : nil)
        engine.push(sample)
        reports += engine.pull()
    }
    reports += engine.finish()
    if configuration.recordsHistory && configuration.tracking == .kalman, let smoothed = try? engine.smooth(reports) {
        reports += smoothed
    }
    for r in reports {
        require(
            [r.timestamp, r.position.x, r.position.y, r.position.z, r.accuracy].allSatisfy(\.isFinite),
            "non-finite report \(r)")
        require(r.accuracy > 0, "accuracy not positive: \(r)")
    }
    let s = engine.statistics
    require(
        s.accepted + s.unknownBeacon + s.invalidRSSI + s.invalidTime + s.late == pushed,
        "samples lost from the counts: \(s), pushed \(pushed)")
    return 0
}

@_cdecl("FuzzEngine_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv) { data, count in fuzz(data!, count) }
}
