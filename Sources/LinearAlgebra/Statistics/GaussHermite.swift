import Foundation

/// A Gauss–Hermite quadrature rule: ∫ e^(−x²) f(x) dx ≈ Σ wₖ f(xₖ), exact for polynomials f of
/// degree below 2n. Its use here is the expectation under a normal distribution:
/// E f(Z) ≈ Σ ``normalLogWeights``ₖ-weighted f(√2 xₖ) for Z ~ N(0, 1).
///
/// The nodes and weights come from the symmetric tridiagonal Jacobi matrix of the Hermite
/// polynomials (zero diagonal, off-diagonal √(k/2)): its eigenvalues are the nodes and √π times
/// the squared first components of its unit eigenvectors the weights (Golub and Welsch, "Calculation
/// of Gauss quadrature rules", Mathematics of Computation 23, 1969), by LAPACK's `dsyev`.
package struct GaussHermite: Sendable {
    /// The nodes xₖ, ascending.
    package let nodes: [Double]
    /// The weights wₖ (they sum to √π).
    package let weights: [Double]
    /// ln(wₖ/√π): the weights of E f(Z) ≈ Σ (wₖ/√π) f(√2 xₖ), Z ~ N(0, 1); they sum to 1.
    package let normalLogWeights: [Double]
    /// ln wₖ + xₖ²: the weights of an integral without the weight function,
    /// ∫ e^g(x) dx ≈ Σ e^(ln wₖ + xₖ²) e^g(xₖ) (adaptive quadrature: exact for g a parabola of
    /// curvature −2 centred at 0).
    package let adaptiveLogWeights: [Double]

    /// The rule of `order` nodes (1…64).
    package init(order: Int) {
        let n = min(max(order, 1), 64)
        var jacobi = Matrix(rows: n, columns: n)
        for k in 1..<max(n, 1) {
            let offDiagonal = (Double(k) / 2).squareRoot()
            jacobi[k, k - 1] = offDiagonal
            jacobi[k - 1, k] = offDiagonal
        }
        var values: [Double] = []
        var workspace = LAPACKWorkspace()
        do {
            try LAPACK.symmetricEigen(&jacobi, eigenvalues: &values, workspace: &workspace)
        } catch {
            // dsyev converges on every Jacobi matrix of this size; a failure would be a broken
            // LAPACK installation, which nothing here can work around.
            preconditionFailure("dsyev failed on the \(n)-node Hermite Jacobi matrix: \(error)")
        }
        let rootPi = Double.pi.squareRoot()
        let w = (0..<n).map { rootPi * jacobi[0, $0] * jacobi[0, $0] }
        nodes = values
        weights = w
        normalLogWeights = w.map { Foundation.log($0 / rootPi) }
        adaptiveLogWeights = (0..<n).map { Foundation.log(w[$0]) + values[$0] * values[$0] }
    }
}
