#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#elseif canImport(ucrt)
import ucrt
#endif

/// A unary elementwise function over a tensor of any shape, as TFLite's float reference kernels compute it
/// with the C library: `EXP`, `LOG`, `SQRT`, `RSQRT` (`1 / sqrt(x)`), `TANH`, `LEAKY_RELU`, `NEG`, `ABS`; and
/// `GELU` (exact or the tanh approximation), 8 lanes at a time with the vector exponential (the microkernels
/// `gelu` and `geluTanh`, in every instruction set's build).
///
/// Pieces are blocks of `Pieces.blockSize` floats, so every piece and thread gives the same bits.
///
/// Aliasing: may run in place. Thread safety: immutable.
package struct ElementwiseUnary: BlockwiseKernel, StepKernel {
    /// The function applied to each element.
    package enum Function: Hashable, Sendable {
        case exp, log, sqrt, rsqrt, tanh, negate, absolute
        /// `0.5 · x · (1 + erf(x / √2))`, or with `approximate` `0.5 · x · (1 + tanh(√(2/π) · (x + 0.044715 · x³)))`.
        case gelu(approximate: Bool)
        /// `x` when positive, else `alpha · x`.
        case leakyReLU(alpha: Float)
    }

    package let function: Function
    package let count: Int
    /// The instruction set of the GELU microkernels.
    package let instructionSet: KernelInstructionSet

    /// - Throws: `KernelError.invalidShape` when `count` is not positive.
    package init(count: Int, function: Function, instructionSet: KernelInstructionSet? = nil) throws(KernelError) {
        guard count > 0 else { throw .invalidShape("\(count) elements") }
        self.count = count
        self.function = function
        self.instructionSet = KernelInstructionSet.resolve(instructionSet)
    }

    package var planDescription: String { "ElementwiseUnary(\(function))" }

    package var pieceCount: Int { Pieces.blockCount(count) }

    package func run(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, elements: Range<Int>) {
        switch function {
        case .exp: for i in elements { output[i] = expf(input[i]) }
        case .log: for i in elements { output[i] = logf(input[i]) }
        case .sqrt: for i in elements { output[i] = sqrtf(input[i]) }
        case .rsqrt: for i in elements { output[i] = 1 / sqrtf(input[i]) }
        case .tanh: for i in elements { output[i] = tanhf(input[i]) }
        case .negate: for i in elements { output[i] = -input[i] }
        case .absolute: for i in elements { output[i] = Swift.abs(input[i]) }
        case .gelu(let approximate):
            let n = elements.count, x = input + elements.lowerBound, y = output + elements.lowerBound
            let table = instructionSet.microkernels.elementwise
            if approximate { table.geluTanh(n, x, y) } else { table.gelu(n, x, y) }
        case .leakyReLU(let alpha):
            for i in elements {
                let x = input[i]
                output[i] = x > 0 ? x : alpha * x
            }
        }
    }

    package func run(inputs: [UnsafePointer<Float>], output: UnsafeMutablePointer<Float>) {
        run(input: inputs[0], output: output, elements: 0..<count)
    }

    package func run(inputs: [UnsafePointer<Float>], output: UnsafeMutablePointer<Float>, pieces: Range<Int>) {
        run(input: inputs[0], output: output, elements: Pieces.elements(pieces, count: count))
    }
}
