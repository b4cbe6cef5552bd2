#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(ucrt)
import ucrt
#endif

/// A standalone smooth activation over a tensor of any shape (TFLite's float `LOGISTIC` and `HARD_SWISH`).
///
/// - `.logistic`: TFLite's float reference, `1 / (1 + exp(−x))` for x in [−9, 16.619047], `exp(x)` below −9
///   and 1 above 16.619047. NaN passes through.
/// - `.hardSwish`: TFLite's float formula `x · min(max(x + 3, 0), 6) / 6`, in that order of operations.
///
/// Implementations: `.reference` (scalar loop, `expf` of the C library) and `.simd` (`SIMD8<Float>`; also
/// `.automatic` and `.blas`). HARD_SWISH is bit-identical across them; the SIMD logistic uses a vector
/// polynomial `exp` and stays within 2 ulp of the reference (exactly 0 and 1 where the reference's branches
/// give them, except that it flushes results below 2^−126 to 0). Every piece and row range gives the same bits.
///
/// Aliasing: may run in place (`output == input`). No other overlap is allowed.
/// Thread safety: immutable; `run` may be called concurrently with non-overlapping outputs.
package struct Nonlinearity: BlockwiseKernel {
    /// The function applied to each element.
    package enum Function: String, Hashable, Sendable {
        case logistic
        case hardSwish
        /// `x · logistic(x)`: a LOGISTIC and the MUL of its input by it (SiLU), fused at load time.
        case silu
    }

    /// The tensor's shape (its rows give the row ranges).
    package let shape: Shape4
    package let function: Function
    /// The implementation chosen at creation (never `.automatic`).
    package let variant: KernelVariant
    /// The instruction set the `.simd` implementation runs on.
    package let instructionSet: KernelInstructionSet

    /// The number of floats `run` reads and writes.
    package var count: Int { shape.count }

    /// - Parameters:
    ///   - shape: The tensor's shape (any rank up to 4, padded with leading 1s).
    ///   - function: The activation.
    ///   - variant: The implementation.
    ///   - instructionSet: The instruction set of the `.simd` kernel; nil (the default) for
    ///     `KernelInstructionSet.active`. An unsupported one falls back to `.baseline`.
    /// - Throws: `KernelError.invalidShape` for a dimension that is not positive.
    package init(shape: Shape4, function: Function, variant: KernelVariant = .automatic,
                instructionSet: KernelInstructionSet? = nil) throws(KernelError) {
        guard shape.n > 0, shape.h > 0, shape.w > 0, shape.c > 0 else {
            throw .invalidShape("shape \(shape) has a dimension that is not positive")
        }
        self.shape = shape
        self.function = function
        self.variant = variant == .reference ? .reference : .simd
        self.instructionSet = KernelInstructionSet.resolve(instructionSet)
    }

    /// Independent pieces: blocks of `Pieces.blockSize` floats.
    package var pieceCount: Int { Pieces.blockCount(count) }

    /// Applies the function to rows `rows` (of `n·h`, each `w·c` floats).
    package func run(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, outputRows rows: Range<Int>) {
        let rowFloats = shape.w * shape.c
        let lower = min(max(rows.lowerBound, 0) * rowFloats, count)
        run(input: input, output: output, elements: lower..<max(min(rows.upperBound * rowFloats, count), lower))
    }

    /// Applies the function to the floats at `elements`.
    /// - Parameters:
    ///   - input: `count` floats.
    ///   - output: `count` floats; may equal `input`.
    ///   - elements: a subrange of `0..<count`.
    package func run(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, elements: Range<Int>) {
        let n = elements.count, x = input + elements.lowerBound, y = output + elements.lowerBound
        guard n > 0 else { return }
        if variant == .simd {
            switch function {
            case .logistic: instructionSet.microkernels.elementwise.logistic(n, x, y)
            case .hardSwish: instructionSet.microkernels.elementwise.hardSwish(n, x, y)
            case .silu: instructionSet.microkernels.elementwise.silu(n, x, y)
            }
            return
        }
        switch function {
        case .logistic: for i in 0..<n { y[i] = Self.logistic(x[i]) }
        case .hardSwish: for i in 0..<n { y[i] = Self.hardSwish(x[i]) }
        case .silu: for i in 0..<n { y[i] = x[i] * Self.logistic(x[i]) }
        }
    }

    /// TFLite's float `Logistic` (reference_ops), the scalar oracle.
    package static func logistic(_ x: Float) -> Float {
        let upper: Float = 16.619047164916992188, lower: Float = -9
        if x > upper { return 1 }
        if x < lower { return expf(x) }
        return 1 / (1 + expf(-x))
    }

    /// TFLite's float `HardSwish`: `x · min(max(x + 3, 0), 6) / 6` (TFLite's `std::max(0, x + 3)` maps NaN to 0;
    /// the product is NaN either way).
    package static func hardSwish(_ x: Float) -> Float {
        let shifted = x + 3
        let relu6 = min(6, shifted > 0 ? shifted : 0)
        return x * relu6 / 6
    }
}

extension Nonlinearity: UnaryStepKernel, VariantKernel {
    /// The type's name and the function, such as `Nonlinearity.logistic.simd`.
    package var planDescription: String { "Nonlinearity.\(function.rawValue).\(variant)" }

    /// Each output row is the same row of the input (a batch of one).
    package var rowLocality: RowLocality? {
        shape.n == 1 ? RowLocality(windows: [.identity], output: shape, computesRowRanges: true) : nil
    }

    package func run(inputs: [UnsafePointer<Float>], output: UnsafeMutablePointer<Float>, pieces: Range<Int>) {
        run(input: inputs[0], output: output, pieces: pieces)
    }

    package func run(inputs: [UnsafePointer<Float>], output: UnsafeMutablePointer<Float>, outputRows rows: Range<Int>) {
        run(input: inputs[0], output: output, outputRows: rows)
    }
}
