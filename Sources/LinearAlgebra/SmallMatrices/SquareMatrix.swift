import Foundation

/// A dense n × n matrix of `Double` stored row by row, for the augmented tracker's state
/// covariance (n = 5 + the number of shadowing-bias states, at most a few dozen).
///
/// The operations work in place on storage that is allocated once, so a filter that keeps its
/// matrices and scratch space between updates allocates nothing per update. Factorisations are
/// plain loops: at these sizes a LAPACK call costs more in set-up than it saves.
public struct SquareMatrix: Sendable, Hashable {
    /// Rows and columns.
    public let size: Int
    /// The entries, row by row: element (i, j) is `elements[i * size + j]`.
    public var elements: [Double] { storage }
    /// The entries (inlinable into the trackers' loops across modules).
    @usableFromInline package var storage: [Double]

    /// The n × n zero matrix.
    @inlinable
    public init(size: Int) {
        self.size = size
        storage = Array(repeating: 0, count: size * size)
    }

    /// Element (row, column), both in `0..<size`. The storage index row · size + column is
    /// computed without overflow checks (the factorisations' inner loops read it hundreds of times
    /// per update) and bounds-checked like any array index.
    @inlinable
    public subscript(row: Int, column: Int) -> Double {
        get { storage[row &* size &+ column] }
        set { storage[row &* size &+ column] = newValue }
    }

    /// Copies `other`'s entries (same size) without allocating.
    @inlinable
    package mutating func assign(_ other: SquareMatrix) {
        for i in storage.indices { storage[i] = other.storage[i] }
    }

    /// Sets every entry to zero.
    @inlinable
    package mutating func zero() {
        for i in storage.indices { storage[i] = 0 }
    }

    /// Whether every entry is finite.
    @inlinable
    package var isFinite: Bool { storage.allSatisfy(\.isFinite) }

    /// Makes the matrix exactly symmetric: A = (A + Aᵀ) / 2.
    @inlinable
    package mutating func symmetrize() {
        for i in 0..<size {
            for j in (i + 1)..<max(size, i + 1) {
                let mean = (self[i, j] + self[j, i]) / 2
                self[i, j] = mean
                self[j, i] = mean
            }
        }
    }

    /// Replaces the lower triangle by the Cholesky factor L (A = L Lᵀ) of this symmetric matrix;
    /// the upper triangle is left as it was. Returns false, leaving a partly factored matrix,
    /// unless the matrix is positive-definite and finite.
    ///
    /// Complexity: n³/3 multiply-adds.
    @inlinable
    package mutating func factorCholesky() -> Bool {
        let n = size
        for j in 0..<n {
            var d = self[j, j]
            for k in 0..<j { d -= self[j, k] * self[j, k] }
            guard d > 0, d.isFinite else { return false }
            let ljj = d.squareRoot()
            self[j, j] = ljj
            for i in (j + 1)..<max(n, j + 1) {
                var s = self[i, j]
                for k in 0..<j { s -= self[i, k] * self[j, k] }
                self[i, j] = s / ljj
            }
        }
        return true
    }

    /// log det A = 2 Σ log Lⱼⱼ from the factor left by ``factorCholesky()``.
    @inlinable
    package var logDeterminantOfFactored: Double {
        var sum = 0.0
        for j in 0..<size { sum += Foundation.log(self[j, j]) }
        return 2 * sum
    }

    /// Solves L Lᵀ x = b in place (`b` becomes x), with L the lower triangle left by
    /// ``factorCholesky()``.
    @inlinable
    package func solveFactored(_ b: inout [Double]) {
        let n = size
        for i in 0..<n {
            var s = b[i]
            for k in 0..<i { s -= self[i, k] * b[k] }
            b[i] = s / self[i, i]
        }
        var i = n - 1
        while i >= 0 {
            var s = b[i]
            for k in (i + 1)..<max(n, i + 1) { s -= self[k, i] * b[k] }
            b[i] = s / self[i, i]
            i -= 1
        }
    }

    /// Writes A⁻¹ into `inverse` (same size) from the Cholesky factor left by
    /// ``factorCholesky()``: W = L⁻¹ by forward substitution (n³/6), then A⁻¹ = Wᵀ W (n³/6 for
    /// one triangle, mirrored). The result is exactly symmetric and positive-definite.
    ///
    /// W is kept transposed, U = Wᵀ in the upper triangle (row j of U is column j of W), so that
    /// every sum runs along two rows: W[i, j] = −Σ_{j ≤ k < i} L[i, k] W[k, j] / L[i, i] and
    /// A⁻¹[i, j] = Σ_{k ≥ i} W[k, i] W[k, j] (j ≤ i), each summed in increasing k.
    @inlinable
    package func invertFactored(into inverse: inout SquareMatrix) {
        let n = size
        for j in 0..<n {
            let rowJ = j &* n
            inverse.storage[rowJ &+ j] = 1 / storage[rowJ &+ j]
            var i = j + 1
            while i < n {
                let rowI = i &* n
                var sum = 0.0
                for k in j..<i { sum += storage[rowI &+ k] * inverse.storage[rowJ &+ k] }
                inverse.storage[rowJ &+ i] = -sum / storage[rowI &+ i]
                i += 1
            }
        }
        // A⁻¹[i, j] for j < i into the strict lower triangle (U's upper part is still needed);
        // the diagonal A⁻¹[i, i] once row i no longer needs U[i, i].
        for i in 0..<n {
            let rowI = i &* n
            for j in 0..<i {
                let rowJ = j &* n
                var sum = 0.0
                for k in i..<n { sum += inverse.storage[rowI &+ k] * inverse.storage[rowJ &+ k] }
                inverse.storage[rowI &+ j] = sum
            }
            var diagonal = 0.0
            for k in i..<n { diagonal += inverse.storage[rowI &+ k] * inverse.storage[rowI &+ k] }
            inverse.storage[rowI &+ i] = diagonal
        }
        for i in 0..<n {
            for j in 0..<i { inverse.storage[j &* n &+ i] = inverse.storage[i &* n &+ j] }
        }
    }
}
