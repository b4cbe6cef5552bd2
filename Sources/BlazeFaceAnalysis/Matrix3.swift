/// A 3x3 matrix of `Double`, stored by rows: a head pose's rotation.
public struct Matrix3: Hashable, Sendable, CustomStringConvertible {
    /// The first row.
    public var row0: SIMD3<Double>
    /// The second row.
    public var row1: SIMD3<Double>
    /// The third row.
    public var row2: SIMD3<Double>

    /// The matrix with these rows.
    /// - Parameters:
    ///   - row0: the first row.
    ///   - row1: the second row.
    ///   - row2: the third row.
    public init(rows row0: SIMD3<Double>, _ row1: SIMD3<Double>, _ row2: SIMD3<Double>) {
        self.row0 = row0
        self.row1 = row1
        self.row2 = row2
    }

    /// The matrix whose columns are `c0`, `c1`, `c2`.
    /// - Parameters:
    ///   - c0: the first column.
    ///   - c1: the second column.
    ///   - c2: the third column.
    public init(columns c0: SIMD3<Double>, _ c1: SIMD3<Double>, _ c2: SIMD3<Double>) {
        self.init(rows: SIMD3(c0.x, c1.x, c2.x), SIMD3(c0.y, c1.y, c2.y), SIMD3(c0.z, c1.z, c2.z))
    }

    /// The identity: no rotation.
    public static let identity = Matrix3(rows: SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1))

    /// The element in `row` and `column`, both 0...2.
    /// - Parameters:
    ///   - row: 0...2.
    ///   - column: 0...2.
    /// - Returns: the element.
    public subscript(row: Int, column: Int) -> Double {
        get {
            switch row {
            case 0: return row0[column]
            case 1: return row1[column]
            default: return row2[column]
            }
        }
        set {
            switch row {
            case 0: row0[column] = newValue
            case 1: row1[column] = newValue
            default: row2[column] = newValue
            }
        }
    }

    /// Column `index` (0...2).
    /// - Parameter index: 0...2.
    /// - Returns: the column.
    public func column(_ index: Int) -> SIMD3<Double> { SIMD3(row0[index], row1[index], row2[index]) }

    /// Rows and columns swapped: the inverse of a rotation.
    public var transposed: Matrix3 { Matrix3(columns: row0, row1, row2) }

    /// The determinant (+1 for a rotation).
    public var determinant: Double {
        (row0 * cross(row1, row2)).sum()
    }

    /// The product `m · v` of a matrix and a column vector.
    /// - Parameters:
    ///   - m: the matrix.
    ///   - v: the vector.
    /// - Returns: `(row0 · v, row1 · v, row2 · v)`.
    public static func * (m: Matrix3, v: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3((m.row0 * v).sum(), (m.row1 * v).sum(), (m.row2 * v).sum())
    }

    /// The matrix product `a · b`: `b` applied first.
    /// - Parameters:
    ///   - a: the left factor.
    ///   - b: the right factor.
    /// - Returns: the product.
    public static func * (a: Matrix3, b: Matrix3) -> Matrix3 {
        let t = b.transposed
        return Matrix3(rows: SIMD3((a.row0 * t.row0).sum(), (a.row0 * t.row1).sum(), (a.row0 * t.row2).sum()),
                       SIMD3((a.row1 * t.row0).sum(), (a.row1 * t.row1).sum(), (a.row1 * t.row2).sum()),
                       SIMD3((a.row2 * t.row0).sum(), (a.row2 * t.row1).sum(), (a.row2 * t.row2).sum()))
    }

    /// The rows, such as `[1.0 0.0 0.0; 0.0 1.0 0.0; 0.0 0.0 1.0]`.
    public var description: String {
        "[\(row0.x) \(row0.y) \(row0.z); \(row1.x) \(row1.y) \(row1.z); \(row2.x) \(row2.y) \(row2.z)]"
    }
}

@inline(__always)
func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
    SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
}
