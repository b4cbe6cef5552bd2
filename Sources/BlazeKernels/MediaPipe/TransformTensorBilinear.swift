/// MediaPipe's `TransformTensorBilinear` (version 2): samples an NHWC tensor (batch 1) through an affine
/// matrix into an output of `outputHeight x outputWidth` with the same channels.
///
/// For output pixel `(x, y)`, with the matrix's first two rows `a` and `b` (16 floats, row-major; rows 3 and 4
/// ignored) and MediaPipe's align-corners correction (pixel centres: `a[3] += a[0]/2 + a[1]/2 − 1/2`, the same
/// for `b`), the source point is `u = a·(x, y, 0, 1)`, `v = b·(x, y, 0, 1)`. When `u` lies outside
/// `[0, width − 1]` or `v` outside `[0, height − 1]` every channel is 0; otherwise the value is the bilinear
/// interpolation of the four neighbours (a neighbour past the last row or column reads 0, with weight 0).
/// A NaN coordinate counts as outside (MediaPipe's C++ would convert NaN to an integer: undefined behaviour).
///
/// Arithmetic follows MediaPipe's C++: the `1 − weight` terms and the correction are computed in double and
/// rounded to float where the C++ assigns to a float.
///
/// Pieces are output rows; every output value is computed the same way whatever the pieces.
/// Thread safety: immutable; `run` may be called concurrently with non-overlapping outputs.
package struct TransformTensorBilinear: Sendable, Equatable {
    package let inputShape: Shape4
    package let outputHeight: Int
    package let outputWidth: Int

    /// The output shape: `[1, outputHeight, outputWidth, inputShape.c]`.
    package var outputShape: Shape4 { Shape4(n: 1, h: outputHeight, w: outputWidth, c: inputShape.c) }

    /// - Throws: `KernelError.invalidShape` for a batch other than 1, and `.invalidParameter` for an output size
    ///   that is not positive or whose element count overflows.
    package init(inputShape: Shape4, outputHeight: Int, outputWidth: Int) throws(KernelError) {
        guard inputShape.n == 1 else { throw .invalidShape("batch \(inputShape.n); only batch 1 is supported") }
        guard outputHeight > 0, outputWidth > 0 else {
            throw .invalidParameter("output size \(outputHeight)x\(outputWidth) is not positive")
        }
        let (plane, o1) = outputHeight.multipliedReportingOverflow(by: outputWidth)
        let (_, o2) = plane.multipliedReportingOverflow(by: inputShape.c)
        guard !o1, !o2 else { throw .invalidParameter("output size \(outputHeight)x\(outputWidth) is too large") }
        self.inputShape = inputShape
        (self.outputHeight, self.outputWidth) = (outputHeight, outputWidth)
    }

    /// Computes the whole output.
    /// - Parameters:
    ///   - input: `inputShape.count` floats.
    ///   - matrix: 16 floats, row-major.
    ///   - output: `outputShape.count` floats.
    package func run(input: UnsafePointer<Float>, matrix: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        run(input: input, matrix: matrix, output: output, rows: 0..<outputHeight)
    }

    /// Computes output rows `rows`: pixels with all four neighbours inside take eight channels at a time (the
    /// same double-precision arithmetic, lane by lane, so the bits equal `runReference`'s).
    package func run(input: UnsafePointer<Float>, matrix: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>,
                    rows: Range<Int>) {
        let height = inputShape.h, width = inputShape.w, channels = inputShape.c
        let sampler = Sampler(matrix, width: width, height: height)
        let blocks = channels / 8 * 8
        for y in rows.clamped(to: 0..<outputHeight) {
            for x in 0..<outputWidth {
                let out = output + (y * outputWidth + x) * channels
                guard let (column, row, right, lower) = sampler.neighbours(x, y) else {
                    out.update(repeating: 0, count: channels)
                    continue
                }
                let p11 = input + (row * width + column) * channels
                guard column + 1 < width, row + 1 < height else {
                    Self.blend(p11, width: width, channels: channels, hasRight: column + 1 < width,
                               hasLower: row + 1 < height, right: right, lower: lower, into: out, from: 0)
                    continue
                }
                let p21 = p11 + channels, p12 = p11 + width * channels, p22 = p12 + channels
                let rightF = SIMD8<Float>(repeating: right), lowerF = SIMD8<Float>(repeating: lower)
                let keepRight = SIMD8<Double>(repeating: 1.0 - Double(right))
                let keepUpper = SIMD8<Double>(repeating: 1.0 - Double(lower))
                var z = 0
                while z < blocks {
                    let q11 = load8(p11 + z), q21 = load8(p21 + z)
                    let q12 = load8(p12 + z), q22 = load8(p22 + z)
                    let upperValue = SIMD8<Float>(keepRight * SIMD8<Double>(q11) + SIMD8<Double>(rightF * q21))
                    let lowerValue = SIMD8<Float>(keepRight * SIMD8<Double>(q12) + SIMD8<Double>(rightF * q22))
                    let value = SIMD8<Float>(SIMD8<Double>(lowerF * lowerValue) + keepUpper * SIMD8<Double>(upperValue))
                    store8(value, out + z)
                    z += 8
                }
                if z < channels {
                    Self.blend(p11, width: width, channels: channels, hasRight: true, hasLower: true, right: right,
                               lower: lower, into: out, from: z)
                }
            }
        }
    }

    /// Where output pixels read: the matrix's first two rows with MediaPipe's align-corners correction of the
    /// translations (in double), and the input's last column and row.
    private struct Sampler {
        let a0, a1, a2, a3, b0, b1, b2, b3, maxX, maxY: Float

        init(_ m: UnsafePointer<Float>, width: Int, height: Int) {
            (a0, a1, a2, b0, b1, b2) = (m[0], m[1], m[2], m[4], m[5], m[6])
            a3 = Float(Double(m[3]) + (Double(a0) * 0.5 + Double(a1) * 0.5 - 0.5))
            b3 = Float(Double(m[7]) + (Double(b0) * 0.5 + Double(b1) * 0.5 - 0.5))
            (maxX, maxY) = (Float(width - 1), Float(height - 1))
        }

        /// The source point of output pixel (x, y), or nil outside the input (NaN included: negated tests).
        @inline(__always)
        func source(_ x: Int, _ y: Int) -> (u: Float, v: Float)? {
            let fx = Float(x), fy = Float(y)
            let u = ((a0 * fx + a1 * fy) + a2 * 0) + a3 * 1
            let v = ((b0 * fx + b1 * fy) + b2 * 0) + b3 * 1
            guard u >= 0, u <= maxX, v >= 0, v <= maxY else { return nil }
            return (u, v)
        }

        /// The input pixel up and left of output pixel (x, y)'s source point, and how far the point lies toward
        /// the next column (`right`) and row (`lower`), each in 0..<1; nil outside the input.
        @inline(__always)
        func neighbours(_ x: Int, _ y: Int) -> (column: Int, row: Int, right: Float, lower: Float)? {
            guard let (u, v) = source(x, y) else { return nil }
            let fu = u.rounded(.down), fv = v.rounded(.down)
            return (Int(fu), Int(fv), u - fu, v - fv)
        }
    }

    /// Channels `from...` of one output pixel, one at a time: MediaPipe's arithmetic, a missing right or lower
    /// neighbour reading 0.
    @inline(__always)
    private static func blend(_ p11: UnsafePointer<Float>, width: Int, channels: Int, hasRight: Bool, hasLower: Bool,
                              right: Float, lower: Float, into out: UnsafeMutablePointer<Float>, from first: Int) {
        let p21 = p11 + channels, p12 = p11 + width * channels, p22 = p12 + channels
        for z in first..<channels {
            let q11 = p11[z]
            let q21: Float = hasRight ? p21[z] : 0
            let q12: Float = hasLower ? p12[z] : 0
            let q22: Float = hasRight && hasLower ? p22[z] : 0
            let upperValue = Float((1.0 - Double(right)) * Double(q11) + Double(right * q21))
            let lowerValue = Float((1.0 - Double(right)) * Double(q12) + Double(right * q22))
            out[z] = Float(Double(lower * lowerValue) + (1.0 - Double(lower)) * Double(upperValue))
        }
    }

    /// The scalar reference: every pixel and channel through `blend`.
    package func runReference(input: UnsafePointer<Float>, matrix: UnsafePointer<Float>,
                              output: UnsafeMutablePointer<Float>) {
        let height = inputShape.h, width = inputShape.w, channels = inputShape.c
        let sampler = Sampler(matrix, width: width, height: height)
        for y in 0..<outputHeight {
            for x in 0..<outputWidth {
                let out = output + (y * outputWidth + x) * channels
                guard let (column, row, right, lower) = sampler.neighbours(x, y) else {
                    out.update(repeating: 0, count: channels)
                    continue
                }
                Self.blend(input + (row * width + column) * channels, width: width, channels: channels,
                           hasRight: column + 1 < width, hasLower: row + 1 < height, right: right, lower: lower,
                           into: out, from: 0)
            }
        }
    }
}

extension TransformTensorBilinear: StepKernel {
    package var planDescription: String { "TransformTensorBilinear.simd8" }

    package var pieceCount: Int { outputHeight }

    package func run(inputs: [UnsafePointer<Float>], output: UnsafeMutablePointer<Float>) {
        run(input: inputs[0], matrix: inputs[1], output: output)
    }

    package func run(inputs: [UnsafePointer<Float>], output: UnsafeMutablePointer<Float>, pieces: Range<Int>) {
        run(input: inputs[0], matrix: inputs[1], output: output, rows: pieces)
    }
}
