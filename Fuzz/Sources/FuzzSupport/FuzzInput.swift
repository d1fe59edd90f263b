import IndoorPositioning

/// Draws typed values from a fuzzer's bytes, so that one byte string stands for a scene:
/// every value is read from the front, and an exhausted input reads as zeros.
public struct FuzzInput {
    private let bytes: [UInt8]
    private var offset = 0

    public init(_ pointer: UnsafePointer<UInt8>, count: Int) {
        bytes = Array(UnsafeBufferPointer(start: pointer, count: count))
    }

    public var isEmpty: Bool { offset >= bytes.count }

    public mutating func byte() -> UInt8 {
        guard offset < bytes.count else { return 0 }
        defer { offset += 1 }
        return bytes[offset]
    }

    public mutating func uint16() -> UInt16 { UInt16(byte()) << 8 | UInt16(byte()) }

    /// A value in `range`, quantised to 65 536 steps.
    public mutating func double(in range: ClosedRange<Double>) -> Double {
        range.lowerBound + (range.upperBound - range.lowerBound) * Double(uint16()) / 65535
    }

    /// Any bit pattern: NaN, infinities, subnormals and huge values included.
    public mutating func rawDouble() -> Double {
        var bits: UInt64 = 0
        for _ in 0..<8 { bits = bits << 8 | UInt64(byte()) }
        return Double(bitPattern: bits)
    }

    /// Mostly a value in `range`, sometimes (one byte in 16) an arbitrary bit pattern.
    public mutating func mostly(in range: ClosedRange<Double>) -> Double {
        byte() & 0x0F == 0 ? rawDouble() : double(in: range)
    }
}

/// Stops the fuzzer with a message when a promise is broken (libFuzzer records the input).
public func require(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("broken promise: \(message())") }
}

/// Whether a 2 × 2 covariance is symmetric positive-definite with finite entries (relative
/// tolerance on the determinant for rounding).
public func isPositiveDefinite(xx: Double, xy: Double, yy: Double) -> Bool {
    xx.isFinite && xy.isFinite && yy.isFinite && xx > 0 && yy > 0 && xx * yy - xy * xy > -1e-12 * xx * yy
}
