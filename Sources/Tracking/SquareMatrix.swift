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
    public internal(set) var elements: [Double]

    /// The n × n zero matrix.
    public init(size: Int) {
        self.size = size
        elements = Array(repeating: 0, count: size * size)
    }

    /// Element (row, column).
    @inline(__always)
    public subscript(row: Int, column: Int) -> Double {
        get { elements[row * size + column] }
        set { elements[row * size + column] = newValue }
    }

    /// Copies `other`'s entries (same size) without allocating.
    @inline(__always)
    mutating func assign(_ other: SquareMatrix) {
        for i in elements.indices { elements[i] = other.elements[i] }
    }

    /// Sets every entry to zero.
    mutating func zero() {
        for i in elements.indices { elements[i] = 0 }
    }

    /// Whether every entry is finite.
    var isFinite: Bool { elements.allSatisfy(\.isFinite) }

    /// Makes the matrix exactly symmetric: A = (A + Aᵀ) / 2.
    mutating func symmetrize() {
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
    mutating func factorCholesky() -> Bool {
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
    var logDeterminantOfFactored: Double {
        var sum = 0.0
        for j in 0..<size { sum += Foundation.log(self[j, j]) }
        return 2 * sum
    }

    /// Solves L Lᵀ x = b in place (`b` becomes x), with L the lower triangle left by
    /// ``factorCholesky()``.
    func solveFactored(_ b: inout [Double]) {
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
    /// ``factorCholesky()``, column by column; `column` is scratch of length n. The result is
    /// symmetric positive-definite.
    func invertFactored(into inverse: inout SquareMatrix, column: inout [Double]) {
        let n = size
        for j in 0..<n {
            for i in 0..<n { column[i] = i == j ? 1 : 0 }
            solveFactored(&column)
            for i in 0..<n { inverse[i, j] = column[i] }
        }
        inverse.symmetrize()
    }
}
