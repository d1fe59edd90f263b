import Foundation

/// A small xorshift generator with uniform and Gaussian draws, so that every benchmark's
/// scenes, walks and batches are the same on every run.
public struct XorShiftGenerator: Sendable {
    public var state: UInt64

    public init(state: UInt64 = 0x9E37_79B9_7F4A_7C15) {
        self.state = state
    }

    /// Uniform in [0, 1).
    public mutating func uniform() -> Double {
        state ^= state << 13
        state ^= state >> 7
        state ^= state << 17
        return Double(state >> 11) / Double(1 << 53)
    }

    /// Standard normal (Box–Muller).
    public mutating func gaussian() -> Double {
        let u = max(uniform(), 1e-300), v = uniform()
        return (-2 * Foundation.log(u)).squareRoot() * Foundation.cos(2 * Double.pi * v)
    }
}
