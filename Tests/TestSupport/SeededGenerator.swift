import Foundation

/// A small, fast, seedable random number generator (xoshiro256**), so that simulations in
/// tests and benchmarks are reproducible on every platform.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var s: (UInt64, UInt64, UInt64, UInt64)

    /// A generator whose sequence is fixed by `seed`.
    public init(seed: UInt64) {
        var x = seed
        func splitMix() -> UInt64 {
            x &+= 0x9E37_79B9_7F4A_7C15
            var z = x
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        s = (splitMix(), splitMix(), splitMix(), splitMix())
    }

    public mutating func next() -> UInt64 {
        let result = rotl(s.1 &* 5, 7) &* 9
        let t = s.1 << 17
        s.2 ^= s.0
        s.3 ^= s.1
        s.1 ^= s.2
        s.0 ^= s.3
        s.2 ^= t
        s.3 = rotl(s.3, 45)
        return result
    }

    private func rotl(_ x: UInt64, _ k: UInt64) -> UInt64 { (x << k) | (x >> (64 - k)) }

    /// A standard normal deviate (Box–Muller), times `sigma`.
    public mutating func gaussian(sigma: Double = 1) -> Double {
        var u = 0.0
        repeat { u = Double.random(in: 0..<1, using: &self) } while u <= .leastNonzeroMagnitude
        let v = Double.random(in: 0..<1, using: &self)
        return sigma * (-2 * Foundation.log(u)).squareRoot() * Foundation.cos(2 * Double.pi * v)
    }
}
