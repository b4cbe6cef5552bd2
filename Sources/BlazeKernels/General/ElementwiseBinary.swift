/// A binary elementwise operator with NumPy-style broadcasting over up to `TensorDimensions.maximumRank`
/// axes and a fused activation: TFLite's float `SUB`, `DIV`, `MINIMUM`, `MAXIMUM`, `SQUARED_DIFFERENCE`, and
/// `ADD` and `MUL` where their operands have rank above 4 (`Add` and `Mul` take the rest).
///
/// Each output element is one IEEE operation on its two operands (`SQUARED_DIFFERENCE`: the difference, then
/// its square), then the clamp: every piece and thread gives the same bits.
///
/// The broadcast is planned once: axes where both operands step alike are merged, and the innermost axis runs
/// as an 8-lane loop when each operand is dense or one value along it.
///
/// Aliasing: `output` may equal an operand whose shape is the output's. Thread safety: immutable.
package struct ElementwiseBinary: Sendable {
    /// The operation.
    package enum Operation: String, Hashable, Sendable {
        case add, subtract, multiply, divide, minimum, maximum, squaredDifference
    }

    package let operation: Operation
    package let activation: FusedActivation
    /// The broadcast output's dimensions (as TFLite gives them, before merging).
    package let output: TensorDimensions
    /// The merged walk: dimensions and each operand's strides (0 where broadcast), innermost last.
    let sizes: [Int]
    let lhsStrides: [Int]
    let rhsStrides: [Int]

    /// - Throws: `KernelError.invalidShape` for shapes that do not broadcast or are too large.
    package init(_ operation: Operation, lhs: [Int], rhs: [Int], activation: FusedActivation = .none) throws(KernelError) {
        let (a, b, dims) = try TensorDimensions.broadcast(lhs, rhs)
        let rank = dims.count
        let output = try TensorDimensions(dims, role: "broadcast output")
        _ = try TensorDimensions(a, role: "first operand")
        _ = try TensorDimensions(b, role: "second operand")
        self.operation = operation
        self.activation = activation
        self.output = output
        func strides(_ shape: [Int]) -> [Int] {
            let dense = (try? TensorDimensions(shape))?.strides ?? []
            return (0..<rank).map { shape[$0] == dims[$0] ? dense[$0] : 0 }
        }
        // Merge axis j into j+1 when both operands step across j exactly as a run of j+1.
        var sizes: [Int] = [], sa: [Int] = [], sb: [Int] = []
        for (axis, size) in zip(dims.indices, dims) where size > 1 || axis == rank - 1 {
            let (x, y) = (strides(a)[axis], strides(b)[axis])
            if let last = sizes.last, sa.last! == x * size, sb.last! == y * size {
                sizes[sizes.count - 1] = last * size
                sa[sa.count - 1] = x
                sb[sb.count - 1] = y
            } else {
                sizes.append(size)
                sa.append(x)
                sb.append(y)
            }
        }
        if sizes.isEmpty { (sizes, sa, sb) = ([1], [0], [0]) }
        self.sizes = sizes
        self.lhsStrides = sa
        self.rhsStrides = sb
    }

    /// Runs of the innermost merged axis.
    var rows: Int { output.count / sizes[sizes.count - 1] }

    func run(lhs: UnsafePointer<Float>, rhs: UnsafePointer<Float>, output out: UnsafeMutablePointer<Float>,
             rows range: Range<Int>) {
        let rank = sizes.count, inner = sizes[rank - 1]
        let (sa, sb) = (lhsStrides[rank - 1], rhsStrides[rank - 1])
        let (lower, upper) = activation.bounds
        for row in range {
            var (a, b, rest) = (0, 0, row)
            var axis = rank - 2
            while axis >= 0 {
                let i = rest % sizes[axis]
                rest /= sizes[axis]
                a += i * lhsStrides[axis]
                b += i * rhsStrides[axis]
                axis -= 1
            }
            let target = out + row * inner
            switch operation {
            case .add: Self.row({ $0 + $1 }, { $0 + $1 }, lhs + a, sa, rhs + b, sb, target, inner, lower, upper)
            case .subtract: Self.row({ $0 - $1 }, { $0 - $1 }, lhs + a, sa, rhs + b, sb, target, inner, lower, upper)
            case .multiply: Self.row({ $0 * $1 }, { $0 * $1 }, lhs + a, sa, rhs + b, sb, target, inner, lower, upper)
            case .divide: Self.row({ $0 / $1 }, { $0 / $1 }, lhs + a, sa, rhs + b, sb, target, inner, lower, upper)
            case .minimum:
                Self.row({ $0.replacing(with: $1, where: $1 .< $0) }, { $1 < $0 ? $1 : $0 },
                         lhs + a, sa, rhs + b, sb, target, inner, lower, upper)
            case .maximum:
                Self.row({ $0.replacing(with: $1, where: $1 .> $0) }, { $1 > $0 ? $1 : $0 },
                         lhs + a, sa, rhs + b, sb, target, inner, lower, upper)
            case .squaredDifference:
                Self.row({ ($0 - $1) * ($0 - $1) }, { ($0 - $1) * ($0 - $1) },
                         lhs + a, sa, rhs + b, sb, target, inner, lower, upper)
            }
        }
    }

    /// `out[i] = clamp(f(a[i·sa], b[i·sb]))`; 8 lanes at a time when both strides are 0 or 1.
    @inline(__always)
    static func row(
        _ vector: (SIMD8<Float>, SIMD8<Float>) -> SIMD8<Float>, _ scalar: (Float, Float) -> Float,
        _ a: UnsafePointer<Float>, _ sa: Int, _ b: UnsafePointer<Float>, _ sb: Int,
        _ out: UnsafeMutablePointer<Float>, _ count: Int, _ lower: Float, _ upper: Float
    ) {
        var i = 0
        if sa <= 1, sb <= 1 {
            let lo = SIMD8<Float>(repeating: lower), hi = SIMD8<Float>(repeating: upper)
            let splatA = SIMD8<Float>(repeating: a[0]), splatB = SIMD8<Float>(repeating: b[0])
            while i + 8 <= count {
                let x = sa == 1 ? UnsafeRawPointer(a + i).loadUnaligned(as: SIMD8<Float>.self) : splatA
                let y = sb == 1 ? UnsafeRawPointer(b + i).loadUnaligned(as: SIMD8<Float>.self) : splatB
                var r = vector(x, y)
                r = r.replacing(with: lo, where: r .< lo).replacing(with: hi, where: r .> hi)
                UnsafeMutableRawPointer(out + i).storeBytes(of: r, as: SIMD8<Float>.self)
                i += 8
            }
        }
        while i < count {
            let r = scalar(a[i * sa], b[i * sb])
            out[i] = r < lower ? lower : (r > upper ? upper : r)
            i += 1
        }
    }
}

extension ElementwiseBinary: StepKernel {
    package var planDescription: String { "ElementwiseBinary(\(operation.rawValue))" }

    package var pieceCount: Int { rows }

    package func run(inputs: [UnsafePointer<Float>], output: UnsafeMutablePointer<Float>) {
        run(lhs: inputs[0], rhs: inputs[1], output: output, rows: 0..<rows)
    }

    package func run(inputs: [UnsafePointer<Float>], output: UnsafeMutablePointer<Float>, pieces: Range<Int>) {
        run(lhs: inputs[0], rhs: inputs[1], output: output, rows: pieces)
    }
}
