/// Bilinear resizing of NHWC float32 data, exactly as TFLite's reference `RESIZE_BILINEAR`.
///
/// For output row `y` (columns alike), with `scale = inH / outH` (float division), or
/// `(inH − 1) / (outH − 1)` when `alignCorners` and `outH > 1`:
/// - the source coordinate is `y·scale`, or `(y + 0.5)·scale − 0.5` with `halfPixelCenters`;
/// - `y0 = max(floor(src), 0)`, `y1 = min(ceil(src), inH − 1)`, `dy = src − y0` (which may be negative near
///   the top edge with `halfPixelCenters`: y0 = y1 = 0 and the weights still sum to 1);
/// - `out = in(y0,x0)·(1−dy)·(1−dx) + in(y1,x0)·dy·(1−dx) + in(y0,x1)·(1−dy)·dx + in(y1,x1)·dy·dx`,
///   evaluated left to right in float, as in TFLite.
/// `alignCorners` and `halfPixelCenters` together are rejected, as TFLite does.
///
/// Implementations: `.reference` (computes the coordinates on the fly, scalar) and `.simd` (coordinate
/// tables built at creation, vectorized over channels with the same arithmetic, so results are identical;
/// also `.automatic` and `.blas`).
///
/// Thread safety: immutable after creation; `run` may be called concurrently with non-overlapping outputs.
package struct ResizeBilinear: Sendable {
    package let inputShape: Shape4
    /// `[n, outputHeight, outputWidth, c]`.
    package let outputShape: Shape4
    package let alignCorners: Bool
    package let halfPixelCenters: Bool
    /// The implementation chosen at creation (never `.automatic`).
    package let variant: KernelVariant
    /// The instruction set the `.simd` implementation (`Microkernels.resizeBilinear`) runs on.
    package let instructionSet: KernelInstructionSet

    /// Source row scale and column scale, as TFLite computes them.
    let heightScale: Float
    let widthScale: Float
    /// `.simd` only: per output row `(y0, y1)`, then per output column `(x0, x1)`.
    let indices: PackedBuffer<Int>
    /// `.simd` only: per output row `dy`, then per output column `dx`.
    let fractions: PackedBuffer<Float>

    /// - Parameters:
    ///   - inputShape: NHWC input shape; every dimension positive.
    ///   - outputHeight: Positive.
    ///   - outputWidth: Positive.
    ///   - alignCorners: TFLite's `align_corners`.
    ///   - halfPixelCenters: TFLite's `half_pixel_centers`; not together with `alignCorners`.
    ///   - variant: The implementation.
    ///   - instructionSet: The instruction set of the `.simd` kernel; nil (the default) for
    ///     `KernelInstructionSet.active`. An unsupported one falls back to `.baseline`.
    /// - Throws: `KernelError.invalidShape` for a non-positive size, `.invalidParameter` for both flags.
    package init(
        inputShape: Shape4, outputHeight: Int, outputWidth: Int, alignCorners: Bool = false,
        halfPixelCenters: Bool = false, variant: KernelVariant = .automatic,
        instructionSet: KernelInstructionSet? = nil
    ) throws(KernelError) {
        try inputShape.validate("input")
        guard outputHeight > 0, outputWidth > 0 else {
            throw .invalidShape("output size \(outputHeight)x\(outputWidth) must be positive")
        }
        guard !(alignCorners && halfPixelCenters) else {
            throw .invalidParameter("alignCorners and halfPixelCenters cannot both be true")
        }
        self.inputShape = inputShape
        self.outputShape = Shape4(n: inputShape.n, h: outputHeight, w: outputWidth, c: inputShape.c)
        self.alignCorners = alignCorners
        self.halfPixelCenters = halfPixelCenters
        self.instructionSet = KernelInstructionSet.resolve(instructionSet)
        heightScale = ResizeBilinear.scale(input: inputShape.h, output: outputHeight, alignCorners: alignCorners)
        widthScale = ResizeBilinear.scale(input: inputShape.w, output: outputWidth, alignCorners: alignCorners)

        if variant == .reference {
            self.variant = .reference
            indices = PackedBuffer(count: 0, repeating: 0)
            fractions = PackedBuffer(count: 0, repeating: 0)
        } else {
            self.variant = .simd
            indices = PackedBuffer(count: 2 * (outputHeight + outputWidth), repeating: 0)
            fractions = PackedBuffer(count: outputHeight + outputWidth, repeating: 0)
            for y in 0..<outputHeight {
                let v = ResizeBilinear.interpolation(y, scale: heightScale, halfPixelCenters: halfPixelCenters,
                                                     inputSize: inputShape.h)
                indices.pointer[2 * y] = v.lower
                indices.pointer[2 * y + 1] = v.upper
                fractions.pointer[y] = v.source - Float(v.lower)
            }
            for x in 0..<outputWidth {
                let v = ResizeBilinear.interpolation(x, scale: widthScale, halfPixelCenters: halfPixelCenters,
                                                     inputSize: inputShape.w)
                indices.pointer[2 * (outputHeight + x)] = v.lower
                indices.pointer[2 * (outputHeight + x) + 1] = v.upper
                fractions.pointer[outputHeight + x] = v.source - Float(v.lower)
            }
        }
    }

    /// TFLite's scale: `in / out`, or `(in − 1) / (out − 1)` with `alignCorners` and `out > 1`.
    static func scale(input: Int, output: Int, alignCorners: Bool) -> Float {
        if alignCorners && output > 1 {
            return Float(input - 1) / Float(output - 1)
        }
        return Float(input) / Float(output)
    }

    /// TFLite's `ComputeInterpolationValues`: the source coordinate and its clamped lower and upper indices.
    @inline(__always)
    static func interpolation(
        _ value: Int, scale: Float, halfPixelCenters: Bool, inputSize: Int
    ) -> (source: Float, lower: Int, upper: Int) {
        let source = halfPixelCenters ? (Float(value) + 0.5) * scale - 0.5 : Float(value) * scale
        let lower = max(Int(source.rounded(.down)), 0)
        let upper = min(Int(source.rounded(.up)), inputSize - 1)
        return (source, lower, upper)
    }

    /// Resizes all batches.
    ///
    /// - Parameters:
    ///   - input: `inputShape.count` floats.
    ///   - output: `outputShape.count` floats. Must not overlap `input`.
    package func run(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        switch variant {
        case .simd: runSIMD(input: input, output: output)
        default: runReference(input: input, output: output)
        }
    }
}

extension ResizeBilinear: UnaryStepKernel, VariantKernel {}
