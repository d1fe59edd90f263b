import Foundation
import FuzzSupport
import IndoorPositioning

#if canImport(Monitoring)
import Monitoring

/// The bundled office plan (zones west, centre, east), against which regions are checked.
private let plan: FloorPlan? = {
    let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
            "Docs/Examples/office-plan.json"
        ).path
    return try? FloorPlan.load(path: path)
}()

/// Regions JSON: any bytes either read as regions (unique ids, parents present, no cycles) or
/// throw a `MonitorError`.
func fuzz(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard let plan else { fatalError("Docs/Examples/office-plan.json did not load") }
    do {
        let file = try RegionsFile(jsonData: Data(bytes: data, count: count), plan: plan)
        let ids = file.regions.map(\.id)
        if Set(ids).count != ids.count { fatalError("broken promise: duplicate region ids \(ids)") }
        for region in file.regions where region.parent != nil && !ids.contains(region.parent!) {
            fatalError("broken promise: region \(region.id) has a missing parent")
        }
    } catch {
        _ = String(describing: error)
    }
    return 0
}
#else
/// The Monitoring module is not in this build: nothing to fuzz (Scripts/fuzz.sh says so).
func fuzz(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt { 0 }
#endif

@_cdecl("FuzzRegions_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv) { data, count in fuzz(data!, count) }
}
