/// A dense real matrix stored in column-major order, the layout LAPACK expects.
///
/// Element (row i, column j) lives at `elements[i + j * rows]`. The matrix is a value type;
/// mutating it in place does not allocate as long as its storage is not shared.
public struct Matrix: Sendable, Hashable, CustomStringConvertible {
    /// Number of rows (m).
    public private(set) var rows: Int
    /// Number of columns (n).
    public private(set) var columns: Int
    /// Column-major storage, `rows * columns` values.
    public var elements: [Double]

    /// A `rows × columns` matrix filled with `value` (default 0).
    public init(rows: Int, columns: Int, repeating value: Double = 0) {
        precondition(rows >= 0 && columns >= 0, "Matrix dimensions must be non-negative")
        self.rows = rows
        self.columns = columns
        self.elements = Array(repeating: value, count: rows * columns)
    }

    /// A matrix from row-major nested arrays (the way matrices are written on paper).
    ///
    /// All rows must have the same length.
    public init(rowMajor values: [[Double]]) {
        let m = values.count
        let n = values.first?.count ?? 0
        precondition(values.allSatisfy { $0.count == n }, "All rows must have the same length")
        self.init(rows: m, columns: n)
        for i in 0..<m {
            for j in 0..<n { self[i, j] = values[i][j] }
        }
    }

    /// A matrix from column-major storage.
    public init(rows: Int, columns: Int, columnMajor elements: [Double]) {
        precondition(elements.count == rows * columns, "Storage must hold rows × columns values")
        self.rows = rows
        self.columns = columns
        self.elements = elements
    }

    /// The `n × n` identity matrix.
    public static func identity(_ n: Int) -> Matrix {
        var matrix = Matrix(rows: n, columns: n)
        for i in 0..<n { matrix[i, i] = 1 }
        return matrix
    }

    /// A column vector (`count × 1`) holding `values`.
    public static func column(_ values: [Double]) -> Matrix {
        Matrix(rows: values.count, columns: 1, columnMajor: values)
    }

    /// Element at row `i`, column `j` (both zero-based).
    @inlinable
    public subscript(i: Int, j: Int) -> Double {
        get { elements[i + j * rows] }
        set { elements[i + j * rows] = newValue }
    }

    /// Changes the shape in place, keeping the storage capacity (no allocation when the new
    /// size fits the capacity already reserved). Contents are zeroed.
    public mutating func reshape(rows: Int, columns: Int) {
        precondition(rows >= 0 && columns >= 0, "Matrix dimensions must be non-negative")
        self.rows = rows
        self.columns = columns
        let count = rows * columns
        if elements.count > count {
            elements.removeLast(elements.count - count)
        } else if elements.count < count {
            elements.append(contentsOf: repeatElement(0, count: count - elements.count))
        }
        for k in elements.indices { elements[k] = 0 }
    }

    /// The transpose Aᵀ.
    public var transposed: Matrix {
        var result = Matrix(rows: columns, columns: rows)
        for i in 0..<rows {
            for j in 0..<columns { result[j, i] = self[i, j] }
        }
        return result
    }

    /// Matrix product `lhs · rhs`.
    public static func * (lhs: Matrix, rhs: Matrix) -> Matrix {
        precondition(lhs.columns == rhs.rows, "Inner dimensions must agree")
        var result = Matrix(rows: lhs.rows, columns: rhs.columns)
        for j in 0..<rhs.columns {
            for k in 0..<lhs.columns {
                let b = rhs[k, j]
                if b == 0 { continue }
                for i in 0..<lhs.rows { result[i, j] += lhs[i, k] * b }
            }
        }
        return result
    }

    /// Whether every element is finite (no NaN, no infinity).
    public var isFinite: Bool { elements.allSatisfy { $0.isFinite } }

    public var description: String {
        (0..<rows).map { i in
            (0..<columns).map { j in String(self[i, j]) }.joined(separator: " ")
        }.joined(separator: "\n")
    }
}
