/// A failure reported by a LAPACK routine, or a call that could not be made.
public enum LAPACKError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Argument number `argument` of `routine` had an illegal value (`info < 0`): a bug in the
    /// caller, reported rather than crashing.
    case illegalArgument(routine: String, argument: Int)
    /// The matrix is not positive definite: the leading minor of order `order` is not positive
    /// (`dpotrf`, `dposv` with `info > 0`).
    case notPositiveDefinite(routine: String, order: Int)
    /// The matrix is singular or rank deficient where full rank was required (`info > 0`).
    case singular(routine: String, info: Int)
    /// An iterative algorithm (SVD, eigenvalues) failed to converge (`info > 0`).
    case noConvergence(routine: String, info: Int)
    /// The operands' shapes do not fit together; the message says how.
    case dimensionMismatch(routine: String, detail: String)
    /// An input contains NaN or infinity; LAPACK's answer would be meaningless.
    case nonFiniteInput(routine: String)

    /// The LAPACK routine involved.
    public var routine: String {
        switch self {
        case .illegalArgument(let r, _), .notPositiveDefinite(let r, _), .singular(let r, _),
            .noConvergence(let r, _), .dimensionMismatch(let r, _), .nonFiniteInput(let r):
            return r
        }
    }

    /// The `info` value LAPACK returned (0 for errors detected before the call).
    public var info: Int {
        switch self {
        case .illegalArgument(_, let a): return -a
        case .notPositiveDefinite(_, let k), .singular(_, let k), .noConvergence(_, let k): return k
        case .dimensionMismatch, .nonFiniteInput: return 0
        }
    }

    public var description: String {
        switch self {
        case .illegalArgument(let r, let a):
            return "\(r): argument \(a) has an illegal value (info = \(-a))"
        case .notPositiveDefinite(let r, let k):
            return "\(r): the matrix is not positive definite (leading minor \(k) is not positive)"
        case .singular(let r, let k):
            return "\(r): the matrix is singular or rank deficient (info = \(k))"
        case .noConvergence(let r, let k):
            return "\(r): the algorithm did not converge (\(k) off-diagonal elements did not vanish)"
        case .dimensionMismatch(let r, let d):
            return "\(r): dimension mismatch: \(d)"
        case .nonFiniteInput(let r):
            return "\(r): input contains NaN or infinity"
        }
    }
}
