import Foundation
import FuzzSupport
import IndoorPositioning

/// Floor-plan JSON: any bytes either load as a valid plan or throw a `FloorPlanError`; a loaded
/// plan survives writing and reading back unchanged.
func fuzz(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Data(bytes: data, count: count)
    guard let plan = try? FloorPlan(jsonData: bytes) else { return 0 }
    _ = String(describing: plan)
    let again: FloorPlan
    do {
        again = try FloorPlan(jsonData: plan.jsonData())
    } catch {
        fatalError("broken promise: a loaded plan does not load again after writing: \(error)")
    }
    if again != plan { fatalError("broken promise: plan changed on a write/read round trip") }
    for floor in plan.floors {
        for beacon in floor.beacons {
            if let resolved = plan.resolvedBeacon(beacon.identity) {
                let model = PathLossModel(resolved)
                if !model.measuredPower.isFinite || !model.exponent.isFinite {
                    fatalError("broken promise: non-finite model")
                }
            }
        }
    }
    return 0
}

@_cdecl("FuzzFloorPlan_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv) { data, count in fuzz(data!, count) }
}
