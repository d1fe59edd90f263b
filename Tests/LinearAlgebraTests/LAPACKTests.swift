import Testing

@testable import LinearAlgebra

@Suite("LAPACK wrappers")
struct LAPACKTests {
    @Test("dgels: overdetermined line fit matches the normal-equation answer")
    func overdeterminedLeastSquares() throws {
        // Fit y = a + b t to four points; the exact least-squares answer is a = 3.5, b = 1.5.
        var a = Matrix(rowMajor: [[1, 0], [1, 1], [1, 2], [1, 3]])
        var b = Matrix.column([4, 4, 7, 8])
        var workspace = LAPACKWorkspace()
        try LAPACK.leastSquares(&a, &b, workspace: &workspace)
        #expect(abs(b[0, 0] - 3.5) < 1e-12)
        #expect(abs(b[1, 0] - 1.5) < 1e-12)
        // Rows n..<m hold residual components: RSS = 0.5² + 1² + 0.5² + 0² = 1.5.
        let rss = b[2, 0] * b[2, 0] + b[3, 0] * b[3, 0]
        #expect(abs(rss - 1.5) < 1e-12)
    }

    @Test("dgels: a rank-deficient matrix is a typed error, not garbage")
    func dgelsRankDeficient() {
        var a = Matrix(rowMajor: [[1, 2], [2, 4], [3, 6]])
        var b = Matrix.column([1, 2, 3])
        var workspace = LAPACKWorkspace()
        #expect(throws: LAPACKError.singular(routine: "dgels", info: 2)) {
            try LAPACK.leastSquares(&a, &b, workspace: &workspace)
        }
    }

    @Test("dgelsd: rank-deficient system reports its rank and the minimum-norm solution")
    func rankDeficientSVD() throws {
        // Columns are parallel: x + 2y = 1 in three consistent rows. Minimum norm: (0.2, 0.4).
        var a = Matrix(rowMajor: [[1, 2], [2, 4], [3, 6]])
        var b = Matrix.column([1, 2, 3])
        var workspace = LAPACKWorkspace()
        let rank = try LAPACK.leastSquaresSVD(&a, &b, rcond: 1e-10, workspace: &workspace)
        #expect(rank == 1)
        #expect(abs(b[0, 0] - 0.2) < 1e-12)
        #expect(abs(b[1, 0] - 0.4) < 1e-12)
        #expect(workspace.singularValues.count == 2)
        #expect(abs(workspace.singularValues[0] - (70.0).squareRoot()) < 1e-12)
        #expect(workspace.singularValues[1] < 1e-12)
    }

    @Test("dgelsd: full-rank system reports full rank and agrees with dgels")
    func fullRankSVD() throws {
        let a0 = Matrix(rowMajor: [[2, 1], [1, 3], [0, 1], [4, -1]])
        let b0 = Matrix.column([1, 2, 3, 4])
        var workspace = LAPACKWorkspace()
        var a1 = a0, b1 = b0
        try LAPACK.leastSquares(&a1, &b1, workspace: &workspace)
        var a2 = a0, b2 = b0
        let rank = try LAPACK.leastSquaresSVD(&a2, &b2, rcond: -1, workspace: &workspace)
        #expect(rank == 2)
        #expect(abs(b1[0, 0] - b2[0, 0]) < 1e-12)
        #expect(abs(b1[1, 0] - b2[1, 0]) < 1e-12)
    }

    @Test("dposv: SPD solve")
    func spdSolve() throws {
        var a = Matrix(rowMajor: [[4, 2], [2, 3]])
        var b = Matrix.column([2, 1])  // solution (0.5, 0)
        try LAPACK.solveSPD(&a, &b)
        #expect(abs(b[0, 0] - 0.5) < 1e-14)
        #expect(abs(b[1, 0]) < 1e-14)
    }

    @Test("dpotrf/dpotri: inverse of a known SPD matrix, exactly symmetric")
    func spdInverse() throws {
        // [[4, 2], [2, 3]]⁻¹ = 1/8 [[3, −2], [−2, 4]].
        var a = Matrix(rowMajor: [[4, 2], [2, 3]])
        try LAPACK.invertSPD(&a)
        #expect(abs(a[0, 0] - 0.375) < 1e-14)
        #expect(abs(a[0, 1] + 0.25) < 1e-14)
        #expect(a[0, 1] == a[1, 0])
        #expect(abs(a[1, 1] - 0.5) < 1e-14)
    }

    @Test("dpotrf: Cholesky factor reproduces the matrix")
    func cholesky() throws {
        let original = Matrix(rowMajor: [[25, 15, -5], [15, 18, 0], [-5, 0, 11]])
        var l = original
        try LAPACK.choleskyFactor(&l)
        // Known factor: [[5,0,0],[3,3,0],[-1,1,3]].
        #expect(l == Matrix(rowMajor: [[5, 0, 0], [3, 3, 0], [-1, 1, 3]]))
        #expect(l * l.transposed == original)
    }

    @Test(
        "a matrix that is not SPD gives a typed error naming the failing minor",
        arguments: [
            [[1.0, 2.0], [2.0, 1.0]],  // indefinite: eigenvalues 3 and −1
            [[0.0, 0.0], [0.0, 1.0]]  // singular
        ])
    func notSPD(rows: [[Double]]) {
        var a = Matrix(rowMajor: rows)
        var b = Matrix.column([1, 1])
        #expect(throws: LAPACKError.self) { try LAPACK.solveSPD(&a, &b) }
        var c = Matrix(rowMajor: rows)
        do {
            try LAPACK.invertSPD(&c)
            Issue.record("expected an error")
        } catch {
            guard case .notPositiveDefinite(let routine, let order) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(routine == "dpotrf")
            #expect(order >= 1)
        }
    }

    @Test("dsyev: eigenvalues and eigenvectors of a known symmetric matrix")
    func symmetricEigen() throws {
        // [[2, 1], [1, 2]] has eigenvalues 1 and 3 with eigenvectors (1, −1)/√2 and (1, 1)/√2.
        var a = Matrix(rowMajor: [[2, 1], [1, 2]])
        var values: [Double] = []
        var workspace = LAPACKWorkspace()
        try LAPACK.symmetricEigen(&a, eigenvalues: &values, workspace: &workspace)
        #expect(abs(values[0] - 1) < 1e-14)
        #expect(abs(values[1] - 3) < 1e-14)
        let s = 0.5.squareRoot()
        #expect(abs(abs(a[0, 1]) - s) < 1e-14 && abs(a[0, 1] - a[1, 1]) < 1e-14)
        #expect(abs(abs(a[0, 0]) - s) < 1e-14 && abs(a[0, 0] + a[1, 0]) < 1e-14)
        // A diagonal 3×3 matrix: eigenvalues are its diagonal, ascending.
        var d = Matrix(rowMajor: [[5, 0, 0], [0, -2, 0], [0, 0, 1]])
        try LAPACK.symmetricEigen(&d, eigenvalues: &values, workspace: &workspace)
        #expect(values == [-2, 1, 5])
    }

    @Test("non-finite input and bad shapes are typed errors, not crashes")
    func badInput() {
        var workspace = LAPACKWorkspace()
        var a = Matrix(rowMajor: [[1, 0], [0, .nan], [1, 1]])
        var b = Matrix.column([1, 2, 3])
        #expect(throws: LAPACKError.nonFiniteInput(routine: "dgels")) {
            try LAPACK.leastSquares(&a, &b, workspace: &workspace)
        }
        var wide = Matrix(rowMajor: [[1, 2, 3]])
        var one = Matrix.column([1])
        #expect(throws: LAPACKError.self) { try LAPACK.leastSquares(&wide, &one, workspace: &workspace) }
        var rect = Matrix(rows: 2, columns: 3)
        #expect(throws: LAPACKError.self) { try LAPACK.invertSPD(&rect) }
    }

    @Test("a workspace reused for the same shape gives identical answers")
    func workspaceReuse() throws {
        var workspace = LAPACKWorkspace()
        var first: [Double] = []
        for round in 0..<3 {
            var a = Matrix(rowMajor: [[1, 0], [1, 1], [1, 2], [1, 3]])
            var b = Matrix.column([4, 4, 7, 8])
            try LAPACK.leastSquares(&a, &b, workspace: &workspace)
            if round == 0 { first = b.elements } else { #expect(b.elements == first) }
        }
        #expect(workspace.queried.count == 1)
    }
}
