import Foundation
import FuzzSupport
import PositioningIO

/// Calibration samples CSV, then the fit: any text either reads or throws a `FileError`; a fit of
/// what was read either succeeds with finite values or throws a `CalibrationError`.
func fuzz(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: count), as: UTF8.self)
    guard let read = try? CalibrationSamples.read(text: text), read.samples.count <= 2000 else { return 0 }
    for method in [CalibrationMethod.leastSquares, .huber, .robust, .trimmed(fraction: 0.2)] {
        guard let result = try? PathLossCalibration(method: method).fit(read.samples) else { continue }
        let values = [
            result.model.measuredPower, result.model.exponent, result.model.sigma,
            result.measuredPowerStandardError, result.exponentStandardError
        ]
        if !values.allSatisfy(\.isFinite) { fatalError("broken promise: non-finite fit \(values) by \(method)") }
    }
    return 0
}

@_cdecl("FuzzCalibrationCSV_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv) { data, count in fuzz(data!, count) }
}
