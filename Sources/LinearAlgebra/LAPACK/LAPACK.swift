import CLAPACK

/// Thin, throwing wrappers over the reference LAPACK routines the library uses.
///
/// Every routine works in place on column-major ``Matrix`` values and reports failures as
/// ``LAPACKError``. Routines that need scratch memory take an `inout` ``LAPACKWorkspace``; with
/// a workspace that has already seen the same shape, a call performs no heap allocation.
/// This is the only place in the package that touches unsafe pointers.
public enum LAPACK {
    static let ascii = (
        N: CChar(UInt8(ascii: "N")), L: CChar(UInt8(ascii: "L")),
        V: CChar(UInt8(ascii: "V"))
    )

    // MARK: Least squares

    /// Solves the full-rank least-squares problem min ‖B − A X‖₂ by QR factorisation (`dgels`).
    ///
    /// - Parameters:
    ///   - a: the `m × n` coefficient matrix, `m ≥ n`, of full column rank. Overwritten by its
    ///     QR factorisation.
    ///   - b: the `m × k` right-hand sides. On return its first `n` rows hold the solution X and
    ///     the remaining `m − n` rows hold the residual components (their squared sum is the
    ///     residual sum of squares of each column).
    ///   - workspace: reused scratch memory.
    /// - Throws: ``LAPACKError/singular(routine:info:)`` when A is rank deficient, exactly or
    ///   numerically (|Rⱼⱼ| ≤ 16 ε max(m, n) maxₖ|Rₖₖ|; use
    ///   ``leastSquaresSVD(_:_:rcond:workspace:)`` for that), or a shape or input error.
    /// - Complexity: O(m n²) floating-point operations.
    public static func leastSquares(
        _ a: inout Matrix, _ b: inout Matrix, workspace: inout LAPACKWorkspace
    ) throws(LAPACKError) {
        let routine = "dgels"
        guard a.rows >= a.columns, b.rows == a.rows else {
            throw .dimensionMismatch(
                routine: routine,
                detail: "A is \(a.rows)×\(a.columns) and B has \(b.rows) rows; need m ≥ n and B with m rows")
        }
        guard a.isFinite, b.isFinite else { throw .nonFiniteInput(routine: routine) }
        if a.columns == 0 || b.columns == 0 { return }
        var m = Int32(a.rows), n = Int32(a.columns), nrhs = Int32(b.columns)
        var lda = max(1, m), ldb = max(1, m)
        var trans = ascii.N
        var info: Int32 = 0
        let key = LAPACKWorkspace.QueryKey(routine: 1, m: m, n: n, k: nrhs)
        if workspace.queried[key] == nil {
            var query = 0.0
            var lwork: Int32 = -1
            dgels_(&trans, &m, &n, &nrhs, nil, &lda, nil, &ldb, &query, &lwork, &info, 1)
            try check(info, routine)
            workspace.queried[key] = Int(query)
            workspace.reserveWork(Int(query))
        }
        var lwork = Int32(workspace.work.count)
        a.elements.withUnsafeMutableBufferPointer { pa in
            b.elements.withUnsafeMutableBufferPointer { pb in
                workspace.work.withUnsafeMutableBufferPointer { pw in
                    dgels_(
                        &trans, &m, &n, &nrhs, pa.baseAddress, &lda, pb.baseAddress, &ldb,
                        pw.baseAddress, &lwork, &info, 1)
                }
            }
        }
        if info > 0 { throw .singular(routine: routine, info: Int(info)) }
        try check(info, routine)
        // dgels only stops on an exactly zero pivot; a numerically rank-deficient A gives a
        // meaningless X. Judge R's diagonal against a relative tolerance instead.
        var largest = 0.0
        for j in 0..<a.columns { largest = max(largest, abs(a[j, j])) }
        let tolerance = largest * Double(max(a.rows, a.columns)) * Double.ulpOfOne * 16
        for j in 0..<a.columns where abs(a[j, j]) <= tolerance {
            throw .singular(routine: routine, info: j + 1)
        }
    }

    /// Solves min ‖B − A X‖₂ for any A (also rank deficient or under-determined) by SVD
    /// (`dgelsd`), returning the minimum-norm solution and the effective rank.
    ///
    /// Singular values below `rcond × σ_max` are treated as zero; the directions they span are
    /// left out of the solution, so a rank-deficient problem gets the solution that moves only
    /// along well-determined directions.
    ///
    /// - Parameters:
    ///   - a: the `m × n` coefficient matrix; destroyed.
    ///   - b: right-hand sides with `max(m, n)` rows (the first `m` hold B); on return the first
    ///     `n` rows hold X.
    ///   - rcond: relative threshold for the rank decision, for example `1e-10`. A negative
    ///     value means machine precision.
    ///   - workspace: reused scratch memory; its ``LAPACKWorkspace/singularValues`` hold the
    ///     singular values of A, largest first, after the call.
    /// - Returns: the effective rank of A.
    /// - Complexity: O(m n min(m, n)).
    @discardableResult
    public static func leastSquaresSVD(
        _ a: inout Matrix, _ b: inout Matrix, rcond: Double, workspace: inout LAPACKWorkspace
    ) throws(LAPACKError) -> Int {
        let routine = "dgelsd"
        guard b.rows == max(a.rows, a.columns) else {
            throw .dimensionMismatch(
                routine: routine,
                detail: "B must have max(m, n) = \(max(a.rows, a.columns)) rows, has \(b.rows)")
        }
        guard a.isFinite, b.isFinite, !rcond.isNaN else { throw .nonFiniteInput(routine: routine) }
        if a.rows == 0 || a.columns == 0 || b.columns == 0 { return 0 }
        var m = Int32(a.rows), n = Int32(a.columns), nrhs = Int32(b.columns)
        var lda = max(1, m), ldb = max(1, Int32(b.rows))
        var rcondValue = rcond
        var rank: Int32 = 0
        var info: Int32 = 0
        let count = Int(min(m, n))
        if workspace.singularValues.count != count {
            workspace.singularValues.removeAll(keepingCapacity: true)
            workspace.singularValues.append(contentsOf: repeatElement(0, count: count))
        }
        let key = LAPACKWorkspace.QueryKey(routine: 2, m: m, n: n, k: nrhs)
        if workspace.queried[key] == nil {
            var query = 0.0
            var iquery: Int32 = 0
            var lwork: Int32 = -1
            workspace.singularValues.withUnsafeMutableBufferPointer { ps in
                dgelsd_(
                    &m, &n, &nrhs, nil, &lda, nil, &ldb, ps.baseAddress, &rcondValue, &rank,
                    &query, &lwork, &iquery, &info)
            }
            try check(info, routine)
            workspace.queried[key] = Int(query)
            workspace.reserveWork(Int(query))
            workspace.reserveIntegerWork(max(1, Int(iquery)))
        }
        var lwork = Int32(workspace.work.count)
        a.elements.withUnsafeMutableBufferPointer { pa in
            b.elements.withUnsafeMutableBufferPointer { pb in
                workspace.singularValues.withUnsafeMutableBufferPointer { ps in
                    workspace.work.withUnsafeMutableBufferPointer { pw in
                        workspace.iwork.withUnsafeMutableBufferPointer { piw in
                            dgelsd_(
                                &m, &n, &nrhs, pa.baseAddress, &lda, pb.baseAddress, &ldb,
                                ps.baseAddress, &rcondValue, &rank, pw.baseAddress, &lwork,
                                piw.baseAddress, &info)
                        }
                    }
                }
            }
        }
        if info > 0 { throw .noConvergence(routine: routine, info: Int(info)) }
        try check(info, routine)
        return Int(rank)
    }

    // MARK: Symmetric positive-definite systems

    /// Solves A X = B for a symmetric positive-definite A by Cholesky factorisation (`dposv`).
    ///
    /// Only the lower triangle of `a` is read. On return `a` holds the Cholesky factor L in its
    /// lower triangle and `b` holds X.
    /// - Throws: ``LAPACKError/notPositiveDefinite(routine:order:)`` when A is not SPD.
    /// - Complexity: O(n³/3 + n² k).
    public static func solveSPD(_ a: inout Matrix, _ b: inout Matrix) throws(LAPACKError) {
        let routine = "dposv"
        guard a.rows == a.columns, b.rows == a.rows else {
            throw .dimensionMismatch(
                routine: routine,
                detail: "A is \(a.rows)×\(a.columns), B has \(b.rows) rows; need square A and matching B")
        }
        guard a.isFinite, b.isFinite else { throw .nonFiniteInput(routine: routine) }
        if a.rows == 0 || b.columns == 0 { return }
        var n = Int32(a.rows), nrhs = Int32(b.columns), lda = max(1, n), ldb = max(1, n)
        var uplo = ascii.L
        var info: Int32 = 0
        a.elements.withUnsafeMutableBufferPointer { pa in
            b.elements.withUnsafeMutableBufferPointer { pb in
                dposv_(&uplo, &n, &nrhs, pa.baseAddress, &lda, pb.baseAddress, &ldb, &info, 1)
            }
        }
        if info > 0 { throw .notPositiveDefinite(routine: routine, order: Int(info)) }
        try check(info, routine)
    }

    /// Replaces a symmetric positive-definite A by its lower Cholesky factor L (A = L Lᵀ,
    /// `dpotrf`). The strictly upper triangle is set to zero.
    /// - Throws: ``LAPACKError/notPositiveDefinite(routine:order:)`` when A is not SPD.
    public static func choleskyFactor(_ a: inout Matrix) throws(LAPACKError) {
        try potrf(&a)
        let n = a.rows
        for j in 0..<n {
            for i in 0..<j { a[i, j] = 0 }
        }
    }

    /// Replaces a symmetric positive-definite A by its inverse A⁻¹ (`dpotrf` then `dpotri`);
    /// the result is exactly symmetric.
    ///
    /// Prefer ``solveSPD(_:_:)`` to solve a system; use this where the inverse itself is the
    /// answer (a covariance from an information matrix).
    /// - Throws: ``LAPACKError/notPositiveDefinite(routine:order:)`` when A is not SPD.
    public static func invertSPD(_ a: inout Matrix) throws(LAPACKError) {
        try potrf(&a)
        var n = Int32(a.rows), lda = max(1, Int32(a.rows))
        var uplo = ascii.L
        var info: Int32 = 0
        a.elements.withUnsafeMutableBufferPointer { pa in
            dpotri_(&uplo, &n, pa.baseAddress, &lda, &info, 1)
        }
        if info > 0 { throw .singular(routine: "dpotri", info: Int(info)) }
        try check(info, "dpotri")
        let size = a.rows
        for j in 0..<size {
            for i in 0..<j { a[i, j] = a[j, i] }
        }
    }

    private static func potrf(_ a: inout Matrix) throws(LAPACKError) {
        let routine = "dpotrf"
        guard a.rows == a.columns else {
            throw .dimensionMismatch(routine: routine, detail: "A is \(a.rows)×\(a.columns); need square")
        }
        guard a.isFinite else { throw .nonFiniteInput(routine: routine) }
        if a.rows == 0 { return }
        var n = Int32(a.rows), lda = max(1, n)
        var uplo = ascii.L
        var info: Int32 = 0
        a.elements.withUnsafeMutableBufferPointer { pa in
            dpotrf_(&uplo, &n, pa.baseAddress, &lda, &info, 1)
        }
        if info > 0 { throw .notPositiveDefinite(routine: routine, order: Int(info)) }
        try check(info, routine)
    }

    // MARK: Symmetric eigenproblem

    /// Eigen-decomposition of a symmetric matrix (`dsyev`): A = V diag(λ) Vᵀ.
    ///
    /// Only the lower triangle of `a` is read. On return `eigenvalues` holds λ in ascending
    /// order and the columns of `a` hold the matching orthonormal eigenvectors.
    /// - Complexity: O(n³).
    public static func symmetricEigen(
        _ a: inout Matrix, eigenvalues: inout [Double], workspace: inout LAPACKWorkspace
    ) throws(LAPACKError) {
        let routine = "dsyev"
        guard a.rows == a.columns else {
            throw .dimensionMismatch(routine: routine, detail: "A is \(a.rows)×\(a.columns); need square")
        }
        guard a.isFinite else { throw .nonFiniteInput(routine: routine) }
        if eigenvalues.count != a.rows {
            eigenvalues.removeAll(keepingCapacity: true)
            eigenvalues.append(contentsOf: repeatElement(0, count: a.rows))
        }
        if a.rows == 0 { return }
        var n = Int32(a.rows), lda = max(1, n)
        var jobz = ascii.V, uplo = ascii.L
        var info: Int32 = 0
        let key = LAPACKWorkspace.QueryKey(routine: 3, m: n, n: n, k: 0)
        if workspace.queried[key] == nil {
            var query = 0.0
            var lwork: Int32 = -1
            dsyev_(&jobz, &uplo, &n, nil, &lda, nil, &query, &lwork, &info, 1, 1)
            try check(info, routine)
            workspace.queried[key] = Int(query)
            workspace.reserveWork(Int(query))
        }
        var lwork = Int32(workspace.work.count)
        a.elements.withUnsafeMutableBufferPointer { pa in
            eigenvalues.withUnsafeMutableBufferPointer { pw in
                workspace.work.withUnsafeMutableBufferPointer { pwork in
                    dsyev_(
                        &jobz, &uplo, &n, pa.baseAddress, &lda, pw.baseAddress,
                        pwork.baseAddress, &lwork, &info, 1, 1)
                }
            }
        }
        if info > 0 { throw .noConvergence(routine: routine, info: Int(info)) }
        try check(info, routine)
    }

    @inline(__always)
    static func check(_ info: Int32, _ routine: String) throws(LAPACKError) {
        if info < 0 { throw .illegalArgument(routine: routine, argument: Int(-info)) }
    }
}
