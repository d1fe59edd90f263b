import CFuzzerDriver

/// Runs libFuzzer on `callback` with the command line's arguments. SwiftPM links an executable
/// with `main` aliased to `<Module>_main`, so each target defines that symbol and calls this
/// instead of relying on libFuzzer's own `main`.
public func runFuzzer(
    _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt {
    var count = argc
    var arguments: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = argv
    return LLVMFuzzerRunDriver(&count, &arguments, callback)
}
