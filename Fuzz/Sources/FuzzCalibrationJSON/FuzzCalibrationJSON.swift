import Foundation
import FuzzSupport
import PositioningIO

/// Calibration JSON: any bytes either decode to a valid calibration (finite models) or throw a
/// `CalibrationFileError`; a decoded file survives writing and reading back.
func fuzz(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard let file = try? CalibrationFile(data: Data(bytes: data, count: count)) else { return 0 }
    for (_, model) in file.beaconModels() {
        if !(model.measuredPower.isFinite && model.exponent.isFinite && model.sigma.isFinite && model.sigma > 0) {
            fatalError("broken promise: loaded a non-finite model \(model)")
        }
    }
    do {
        _ = try CalibrationFile(data: file.jsonData())
    } catch {
        fatalError("broken promise: a loaded calibration does not load again after writing: \(error)")
    }
    return 0
}

@_cdecl("FuzzCalibrationJSON_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv) { data, count in fuzz(data!, count) }
}
