/// A standalone activation (TFLite's `RELU`, `RELU6`, `RELU_N1_TO_1`): `output = min(max(x, lower), upper)`
/// over `count` floats of any shape. NaN passes through, as in TFLite.
///
/// Implementations: `.reference` (scalar loop) and `.simd` (`SIMD8<Float>`; also `.automatic` and `.blas`).
///
/// Aliasing: may run in place (`output == input`). No other overlap is allowed.
/// Thread safety: immutable; `run` may be called concurrently with non-overlapping outputs.
package struct Activation: BlockwiseKernel {
    /// The number of floats `run` reads and writes.
    package let count: Int
    package let function: FusedActivation
    /// The implementation chosen at creation (never `.automatic`).
    package let variant: KernelVariant
    /// The instruction set the `.simd` implementation runs on.
    package let instructionSet: KernelInstructionSet

    /// - Parameters:
    ///   - count: Elements per run, at least 0.
    ///   - function: The clamp to apply.
    ///   - variant: The implementation.
    ///   - instructionSet: The instruction set of the `.simd` kernel; nil (the default) for
    ///     `KernelInstructionSet.active`. An unsupported one falls back to `.baseline`.
    /// - Throws: `KernelError.invalidShape` for a negative count.
    package init(count: Int, function: FusedActivation, variant: KernelVariant = .automatic,
                instructionSet: KernelInstructionSet? = nil) throws(KernelError) {
        guard count >= 0 else { throw .invalidShape("element count \(count) is negative") }
        self.count = count
        self.function = function
        self.variant = variant == .reference ? .reference : .simd
        self.instructionSet = KernelInstructionSet.resolve(instructionSet)
    }

    /// Independent pieces: blocks of `Pieces.blockSize` floats.
    package var pieceCount: Int { Pieces.blockCount(count) }

    /// Applies the activation to the floats at `elements`.
    /// - Parameters:
    ///   - input: `count` floats.
    ///   - output: `count` floats; may equal `input`.
    ///   - elements: a subrange of `0..<count`.
    package func run(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, elements: Range<Int>) {
        let (lo, hi) = function.bounds
        if variant == .simd {
            let n = elements.count, x = input + elements.lowerBound, y = output + elements.lowerBound
            instructionSet.microkernels.elementwise.clamp(n, x, y, function.outputBounds)
            return
        }
        // The reference.
        var i = elements.lowerBound
        while i < elements.upperBound {
            output[i] = clamp(input[i], lo, hi)
            i += 1
        }
    }
}

extension Activation: UnaryStepKernel, VariantKernel {
    package func run(inputs: [UnsafePointer<Float>], output: UnsafeMutablePointer<Float>, pieces: Range<Int>) {
        run(input: inputs[0], output: output, pieces: pieces)
    }
}
