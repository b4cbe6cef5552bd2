/// A transposed convolution with bias (MediaPipe's custom TFLite operator `Convolution2DTransposeBias`, used
/// by the selfie segmentation models to upsample).
///
/// Each input pixel scatters `input · filter` into a `filterH × filterW` window of the output at
/// `(inY · strideH − padTop, inX · strideW − padLeft)`, on top of the bias. The filter is OHWI
/// (`[outputChannels, filterH, filterW, inputChannels]`). Padding as MediaPipe computes it: VALID none; SAME a
/// total of `max(0, filter − (in − 1) mod stride − 1)` per axis, half of it (rounded down) before. The output
/// is `stride · (in − 1) + filter − total` per axis.
///
/// Implementations (see `KernelVariant`):
/// - `.reference`: MediaPipe's loop (bias, then each input pixel's products added in input order).
/// - `.simd` (and `.automatic`; `.blas` falls back to it): each output pixel gathers its contributions, input
///   rows and columns ascending and input channels innermost, with vectors of 8 output channels (with fewer
///   than 8 output channels: vectors of 8 output pixels of a row, `strideW` apart; when moreover the filter
///   equals the stride with no padding and there are at most 32 input channels, the selfie models' 2x2/2
///   upsampling, the microkernel `transposeConvUpsample` on `instructionSet`: each block of 8 input pixels
///   gathered once into vectors of one channel for all its output pixels). Every output
///   value receives the same products in the same order as in the reference (bias first, one multiplication
///   and one addition each, no fused multiply-add), so the same bits. Pieces are output rows (`n·h`).
///
/// Aliasing: `output` must not overlap `input`.
/// Thread safety: immutable after creation; `run` may be called concurrently with non-overlapping outputs.

import BlazeKernelParameters
package struct TransposeConvBias: Sendable {
    package let inputShape: Shape4
    package let outputShape: Shape4
    package let filterH: Int
    package let filterW: Int
    package let strideH: Int
    package let strideW: Int
    /// Rows and columns of padding before the input's scatter origin (SAME: half the total, rounded down).
    package let padTop: Int
    package let padLeft: Int
    /// The implementation chosen at creation (never `.automatic`).
    package let variant: KernelVariant
    /// The instruction set the `.simd` upsampling microkernel runs on.
    package let instructionSet: KernelInstructionSet

    /// OHWI weights, as given.
    let filter: [Float]
    let bias: [Float]
    /// `[filterH][filterW][inputChannels][outputChannels rounded up to 8]` with zeros past the output
    /// channels, and the bias padded alike.
    let packed: [Float]
    let packedBias: [Float]

    /// - Parameters:
    ///   - inputShape: The input's NHWC shape.
    ///   - filterShape: `[outputChannels, filterH, filterW, inputChannels]`; `c` must equal the input's.
    ///   - filter: `filterShape.count` weights in OHWI order.
    ///   - bias: `outputChannels` values.
    ///   - strideH, strideW: Positive strides.
    ///   - padding: `.same` or `.valid`, as MediaPipe computes them (see the type's documentation).
    ///   - variant: The implementation.
    ///   - instructionSet: The instruction set of the `.simd` microkernel; nil (the default) for
    ///     `KernelInstructionSet.active`. An unsupported one falls back to `.baseline`.
    /// - Throws: `KernelError.invalidShape` for a dimension or stride that is not positive, a filter whose
    ///   input channels differ from the input's, or weight or bias counts that do not match.
    package init(inputShape: Shape4, filterShape: Shape4, filter: [Float], bias: [Float], strideH: Int, strideW: Int,
                padding: Padding, variant: KernelVariant = .automatic,
                instructionSet: KernelInstructionSet? = nil) throws(KernelError) {
        let i = inputShape, f = filterShape
        guard i.n > 0, i.h > 0, i.w > 0, i.c > 0, f.n > 0, f.h > 0, f.w > 0 else {
            throw .invalidShape("input \(i) or filter \(f) has a dimension that is not positive")
        }
        guard strideH > 0, strideW > 0 else { throw .invalidShape("stride \(strideH)x\(strideW) is not positive") }
        if case .explicit = padding { throw .invalidParameter("a transposed convolution pads SAME or VALID") }
        guard f.c == i.c else { throw .invalidShape("filter \(f) has \(f.c) input channels, the input \(i.c)") }
        guard filter.count == f.count else { throw .invalidShape("filter has \(filter.count) weights, expected \(f.count)") }
        guard bias.count == f.n else { throw .invalidShape("bias has \(bias.count) values, expected \(f.n)") }
        let totalH = padding == .same ? max(0, f.h - (i.h - 1) % strideH - 1) : 0
        let totalW = padding == .same ? max(0, f.w - (i.w - 1) % strideW - 1) : 0
        let (outH, overflowH) = strideH.multipliedReportingOverflow(by: i.h - 1)
        let (outW, overflowW) = strideW.multipliedReportingOverflow(by: i.w - 1)
        guard !overflowH, !overflowW, outH < 1 << 24, outW < 1 << 24 else {
            throw .invalidShape("output of input \(i) with stride \(strideH)x\(strideW) is too large")
        }
        self.inputShape = i
        self.outputShape = Shape4(n: i.n, h: outH + f.h - totalH, w: outW + f.w - totalW, c: f.n)
        (self.filterH, self.filterW, self.strideH, self.strideW) = (f.h, f.w, strideH, strideW)
        (self.padTop, self.padLeft) = (totalH / 2, totalW / 2)
        self.variant = variant == .reference ? .reference : .simd
        self.instructionSet = KernelInstructionSet.resolve(instructionSet)
        self.filter = filter
        self.bias = bias
        let lanes = (f.n + 7) / 8 * 8
        var packed = [Float](repeating: 0, count: f.h * f.w * f.c * lanes)
        for o in 0..<f.n {
            for y in 0..<f.h {
                for x in 0..<f.w {
                    for c in 0..<f.c {
                        packed[((y * f.w + x) * f.c + c) * lanes + o] = filter[((o * f.h + y) * f.w + x) * f.c + c]
                    }
                }
            }
        }
        self.packed = packed
        self.packedBias = bias + [Float](repeating: 0, count: lanes - f.n)
    }

    /// Whether each output pixel reads exactly one input pixel and tap (filter = stride, no padding, the
    /// output exactly `stride ×` the input) with few enough input channels for `transposeConvUpsample`.
    var isUpsampling: Bool {
        filterH == strideH && filterW == strideW && padTop == 0 && padLeft == 0
            && outputShape.h == inputShape.h * strideH && outputShape.w == inputShape.w * strideW
            && inputShape.c <= Microkernels.transposeConvUpsampleMaxChannels
    }

    /// Multiply-accumulates per run.
    package var multiplyAccumulates: Int { inputShape.count * filterH * filterW * outputShape.c }

    /// Computes the output.
    package func run(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        switch variant {
        case .simd: run(input: input, output: output, pieces: 0..<pieceCount)
        default: runReference(input: input, output: output)
        }
    }

    /// Independent pieces: output rows (`n·h`) for SIMD; 1 for the reference.
    package var pieceCount: Int { variant == .simd ? outputShape.n * outputShape.h : 1 }

    /// Computes output rows `pieces` (of `n·h`; the reference computes everything with piece 0).
    package func run(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, pieces: Range<Int>) {
        guard variant == .simd else {
            if pieces.contains(0) { runReference(input: input, output: output) }
            return
        }
        if outputShape.c < 8 && isUpsampling {
            let (i, o) = (inputShape, outputShape)
            let upsample = instructionSet.microkernels.convolution.transposeConvUpsample
            filter.withUnsafeBufferPointer { w in
                bias.withUnsafeBufferPointer { b in
                    Pieces.forEachImage(pieces, input: input, i, output: output, o) { x, y, rows in
                        upsample(TransposeConvUpsampleArguments(
                            input: x, inputExtent: i.imageExtent, output: y, outputChannels: o.c,
                            kernelHeight: filterH, kernelWidth: filterW, filter: w.baseAddress!, bias: b.baseAddress!,
                            outputRows: rows))
                    }
                }
            }
            return
        }
        if outputShape.c < 8 {
            // Few output channels (the selfie models' last layer has one): vectors of output pixels instead.
            filter.withUnsafeBufferPointer { w in
                Pieces.forEachImage(pieces, input: input, inputShape, output: output, outputShape) { x, y, rows in
                    gatherPixels(input: x, output: y, rows: rows, filter: w.baseAddress!)
                }
            }
            return
        }
        packed.withUnsafeBufferPointer { w in
            packedBias.withUnsafeBufferPointer { b in
                Pieces.forEachImage(pieces, input: input, inputShape, output: output, outputShape) { x, y, rows in
                    gather(input: x, output: y, rows: rows, weights: w.baseAddress!, bias: b.baseAddress!)
                }
            }
        }
    }

    /// MediaPipe's reference loop: the bias, then every input pixel's products scattered in input order.
    func runReference(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        let i = inputShape, o = outputShape
        for b in 0..<i.n {
            let out = output + b * o.h * o.w * o.c
            for p in 0..<(o.h * o.w) { for c in 0..<o.c { out[p * o.c + c] = bias[c] } }
            for iy in 0..<i.h {
                for ix in 0..<i.w {
                    for ic in 0..<i.c {
                        let value = input[((b * i.h + iy) * i.w + ix) * i.c + ic]
                        for fy in 0..<filterH {
                            for fx in 0..<filterW {
                                let oy = iy * strideH - padTop + fy, ox = ix * strideW - padLeft + fx
                                guard oy >= 0, oy < o.h, ox >= 0, ox < o.w else { continue }
                                for oc in 0..<o.c {
                                    out[(oy * o.w + ox) * o.c + oc] += value * filter[((oc * filterH + fy) * filterW + fx) * i.c + ic]
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Output rows `rows` of one image, each output pixel gathering its contributions (see the type).
    private func gather(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, rows: Range<Int>,
                        weights: UnsafePointer<Float>, bias: UnsafePointer<Float>) {
        let i = inputShape, o = outputShape
        let lanes = (o.c + 7) / 8 * 8
        for oy in rows {
            // Input rows iy with 0 ≤ oy + padTop − iy·strideH < filterH, ascending.
            let top = oy + padTop
            let firstY = max(0, (top - filterH + strideH) / strideH), lastY = min(i.h - 1, top / strideH)
            for ox in 0..<o.w {
                let left = ox + padLeft
                let firstX = max(0, (left - filterW + strideW) / strideW), lastX = min(i.w - 1, left / strideW)
                let out = output + (oy * o.w + ox) * o.c
                var block = 0
                while block < lanes {
                    var acc = load8(bias + block)
                    if firstY <= lastY && firstX <= lastX {
                        for iy in firstY...lastY {
                            let fy = top - iy * strideH
                            for ix in firstX...lastX {
                                let fx = left - ix * strideW
                                let x = input + (iy * i.w + ix) * i.c
                                var w = weights + (fy * filterW + fx) * i.c * lanes + block
                                for ic in 0..<i.c {
                                    acc = acc + SIMD8<Float>(repeating: x[ic]) * load8(w)
                                    w += lanes
                                }
                            }
                        }
                    }
                    let n = min(8, o.c - block)
                    for k in 0..<n { out[block + k] = acc[k] }
                    block += 8
                }
            }
        }
    }
}

extension TransposeConvBias {
    /// Output rows `rows` of one image with fewer than 8 output channels. Output pixels of one row whose
    /// columns are `strideW` apart read the same filter taps from input columns 1 apart, so 8 of them (when
    /// none of their windows is clipped by the input's edges) are the lanes of one vector: each lane still
    /// adds its products in the reference's order (input rows, columns, channels ascending) to its bias. The
    /// other pixels are computed one by one in that order.
    func gatherPixels(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, rows: Range<Int>,
                      filter: UnsafePointer<Float>) {
        let i = inputShape, o = outputShape
        for oy in rows {
            let top = oy + padTop
            let firstY = max(0, (top - filterH + strideH) / strideH), lastY = min(i.h - 1, top / strideH)
            for phase in 0..<min(strideW, o.w) {
                var ox = phase
                while ox < o.w {
                    let left = ox + padLeft
                    // Input columns of this pixel's window before clipping: ceil((left − filterW + 1) / strideW)...
                    let numerator = left - filterW + strideW
                    let idealFirst = numerator >= 0 ? numerator / strideW : -((-numerator + strideW - 1) / strideW)
                    let idealLast = left / strideW
                    guard ox + 7 * strideW < o.w, idealFirst >= 0, idealLast + 7 < i.w else {
                        pixel(input: input, output: output, oy: oy, ox: ox, firstY: firstY, lastY: lastY, filter: filter)
                        ox += strideW
                        continue
                    }
                    for oc in 0..<o.c {
                        var acc = SIMD8<Float>(repeating: bias[oc])
                        forEachTap(top: top, left: left, rows: (firstY, lastY), columns: (idealFirst, idealLast),
                                   oc: oc, input: input, filter: filter) { x, w in
                            for ic in 0..<i.c {
                                var values = SIMD8<Float>()
                                for k in 0..<8 { values[k] = x[k * i.c + ic] }
                                acc = acc + values * SIMD8<Float>(repeating: w[ic])
                            }
                        }
                        for k in 0..<8 { output[(oy * o.w + ox + k * strideW) * o.c + oc] = acc[k] }
                    }
                    ox += 8 * strideW
                }
            }
        }
    }

    /// One output pixel, its products added in the reference's order.
    @inline(__always)
    private func pixel(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, oy: Int, ox: Int,
                       firstY: Int, lastY: Int, filter: UnsafePointer<Float>) {
        let i = inputShape, o = outputShape
        let top = oy + padTop, left = ox + padLeft
        let firstX = max(0, (left - filterW + strideW) / strideW), lastX = min(i.w - 1, left / strideW)
        for oc in 0..<o.c {
            var acc = bias[oc]
            forEachTap(top: top, left: left, rows: (firstY, lastY), columns: (firstX, lastX), oc: oc, input: input,
                       filter: filter) { x, w in
                for ic in 0..<i.c { acc = acc + x[ic] * w[ic] }
            }
            output[(oy * o.w + ox) * o.c + oc] = acc
        }
    }

    /// The taps of one output pixel's window for output channel `oc`, in the reference's order (input rows,
    /// then columns, ascending): `body(x, w)` with input pixel `x` (its channels) and the filter's taps for it
    /// (as many, OHWI). `top` and `left` are the pixel's padded position; `rows` and `columns` its input rows
    /// and columns (none when a bound is past the other).
    @inline(__always)
    private func forEachTap(top: Int, left: Int, rows: (first: Int, last: Int), columns: (first: Int, last: Int),
                            oc: Int, input: UnsafePointer<Float>, filter: UnsafePointer<Float>,
                            _ body: (UnsafePointer<Float>, UnsafePointer<Float>) -> Void) {
        guard rows.first <= rows.last && columns.first <= columns.last else { return }
        let i = inputShape
        for iy in rows.first...rows.last {
            let fy = top - iy * strideH
            for ix in columns.first...columns.last {
                let fx = left - ix * strideW
                body(input + (iy * i.w + ix) * i.c, filter + ((oc * filterH + fy) * filterW + fx) * i.c)
            }
        }
    }
}

extension TransposeConvBias: UnaryStepKernel, VariantKernel {
    package func run(inputs: [UnsafePointer<Float>], output: UnsafeMutablePointer<Float>, pieces: Range<Int>) {
        run(input: inputs[0], output: output, pieces: pieces)
    }
}
