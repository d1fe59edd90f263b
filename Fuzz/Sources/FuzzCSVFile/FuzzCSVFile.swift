import Foundation
import FuzzSupport
import PositioningIO

/// CSV read from a file: whatever the bytes, and wherever the read blocks fall (1 to 64 bytes,
/// from the first input byte), the reader gives the same header, rows and error as with one
/// block for the whole file; it never crashes.
func fuzz(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard count > 0 else { return 0 }
    let blockSize = Int(data[0] % 64) + 1
    let body = Data(UnsafeBufferPointer(start: data + 1, count: count - 1))
    let path = FileManager.default.temporaryDirectory
        .appendingPathComponent("fuzz-csv-\(ProcessInfo.processInfo.processIdentifier).csv").path
    guard (try? body.write(to: URL(fileURLWithPath: path))) != nil else { return 0 }
    defer { try? FileManager.default.removeItem(atPath: path) }
    let small = read(path, blockSize: blockSize)
    let whole = read(path, blockSize: max(body.count, 1))
    if small != whole {
        fatalError("broken promise: block size \(blockSize) read \(small), one block read \(whole)")
    }
    return 0
}

/// The header and rows, then the error's text if reading stopped at one.
func read(_ path: String, blockSize: Int) -> [[String]] {
    var result: [[String]] = []
    do {
        let reader = try CSVReader(path: path, blockSize: blockSize)
        result.append(reader.header)
        while let row = try reader.next() { result.append(row) }
    } catch {
        result.append(["error", String(describing: error)])
    }
    return result
}

@_cdecl("FuzzCSVFile_main")
public func main(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv) { data, count in fuzz(data!, count) }
}
