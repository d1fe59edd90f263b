/// Scratch memory for LAPACK calls, kept between calls so that repeated solves of the same
/// shape allocate nothing.
///
/// The optimal workspace size of each routine is queried once per shape (`lwork = -1`) and the
/// buffers only ever grow. Keep one workspace per thread or task; it is a value, so copying it
/// copies the buffers (on first write).
public struct LAPACKWorkspace: Sendable {
    @usableFromInline var work: [Double] = []
    @usableFromInline var iwork: [Int32] = []
    /// Singular values of the last `leastSquaresSVD` call, largest first.
    public internal(set) var singularValues: [Double] = []
    var queried: [QueryKey: Int] = [:]

    struct QueryKey: Hashable, Sendable {
        var routine: UInt8
        var m: Int32, n: Int32, k: Int32
    }

    /// An empty workspace; buffers are sized on first use.
    public init() {}

    /// Grows the real work buffer to at least `count` elements.
    mutating func reserveWork(_ count: Int) {
        if work.count < count { work.append(contentsOf: repeatElement(0, count: count - work.count)) }
    }

    /// Grows the integer work buffer to at least `count` elements.
    mutating func reserveIntegerWork(_ count: Int) {
        if iwork.count < count { iwork.append(contentsOf: repeatElement(0, count: count - iwork.count)) }
    }
}
