/// TFLite's padding schemes for convolutions and pooling.
package enum Padding: Hashable, Sendable {
    /// Output size `ceil(in / stride)`; the input is padded with zeros, the smaller half before.
    case same
    /// Output size `ceil((in - effectiveKernel + 1) / stride)`; no padding.
    case valid
    /// Rows and columns of zeros on each side (a PAD of height and width folded into the convolution that
    /// reads it): output size `(in + before + after - effectiveKernel) / stride + 1`. Each must be smaller
    /// than the effective kernel. Taps on the padding are skipped: a convolution adds nothing for them, a
    /// pool leaves them out as it does SAME's.
    case explicit(top: Int, bottom: Int, left: Int, right: Int)
}

/// The spatial geometry of a sliding-window operator (convolution, depthwise convolution, pooling),
/// computed exactly as TFLite does (`ComputePaddingHeightWidth`).
package struct WindowGeometry: Hashable, Sendable {
    package var kernelH: Int
    package var kernelW: Int
    package var strideH: Int
    package var strideW: Int
    package var dilationH: Int
    package var dilationW: Int
    /// Rows of implicit zero padding before the first input row.
    package var padTop: Int
    /// Columns of implicit zero padding before the first input column.
    package var padLeft: Int
    package var outH: Int
    package var outW: Int

    /// Explicit zero padding on each side (a PAD folded into the window operator that reads it): the
    /// output size is `(in + before + after - effectiveKernel) / stride + 1`. Returns nil when a parameter
    /// is not positive, a padding is negative or not smaller than the effective kernel, or the output
    /// would be empty.
    package init?(
        inputH: Int, inputW: Int, kernelH: Int, kernelW: Int, strideH: Int, strideW: Int,
        dilationH: Int = 1, dilationW: Int = 1, padTop: Int, padBottom: Int, padLeft: Int, padRight: Int
    ) {
        guard inputH > 0, inputW > 0, kernelH > 0, kernelW > 0, strideH > 0, strideW > 0,
              dilationH > 0, dilationW > 0 else { return nil }
        let effectiveH = (kernelH - 1) * dilationH + 1, effectiveW = (kernelW - 1) * dilationW + 1
        for pad in [padTop, padBottom] where !(0..<effectiveH).contains(pad) { return nil }
        for pad in [padLeft, padRight] where !(0..<effectiveW).contains(pad) { return nil }
        let paddedH = inputH + padTop + padBottom, paddedW = inputW + padLeft + padRight
        guard paddedH >= effectiveH, paddedW >= effectiveW else { return nil }
        self.init(
            kernel: (kernelH, kernelW), stride: (strideH, strideW), dilation: (dilationH, dilationW),
            padBefore: (padTop, padLeft),
            output: ((paddedH - effectiveH) / strideH + 1, (paddedW - effectiveW) / strideW + 1))
    }

    /// Computes output size and padding the way TFLite does. Returns nil when a parameter is not positive
    /// or the output would be empty.
    package init?(
        inputH: Int, inputW: Int, kernelH: Int, kernelW: Int,
        strideH: Int, strideW: Int, dilationH: Int = 1, dilationW: Int = 1,
        padding: Padding
    ) {
        if case let .explicit(top, bottom, left, right) = padding {
            self.init(inputH: inputH, inputW: inputW, kernelH: kernelH, kernelW: kernelW, strideH: strideH,
                      strideW: strideW, dilationH: dilationH, dilationW: dilationW, padTop: top, padBottom: bottom,
                      padLeft: left, padRight: right)
            return
        }
        guard inputH > 0, inputW > 0, kernelH > 0, kernelW > 0, strideH > 0, strideW > 0,
              dilationH > 0, dilationW > 0 else { return nil }
        func outSize(_ input: Int, _ kernel: Int, _ stride: Int, _ dilation: Int) -> Int {
            let effective = (kernel - 1) * dilation + 1
            switch padding {
            case .same: return (input + stride - 1) / stride
            case .valid, .explicit: return (input + stride - effective) / stride
            }
        }
        func padBefore(_ input: Int, _ kernel: Int, _ stride: Int, _ dilation: Int, _ out: Int) -> Int {
            let effective = (kernel - 1) * dilation + 1
            let total = (out - 1) * stride + effective - input
            return max(total, 0) / 2
        }
        let oh = outSize(inputH, kernelH, strideH, dilationH)
        let ow = outSize(inputW, kernelW, strideW, dilationW)
        guard oh > 0, ow > 0 else { return nil }
        self.init(
            kernel: (kernelH, kernelW), stride: (strideH, strideW), dilation: (dilationH, dilationW),
            padBefore: (
                padBefore(inputH, kernelH, strideH, dilationH, oh), padBefore(inputW, kernelW, strideW, dilationW, ow)
            ),
            output: (oh, ow))
    }

    /// Every field, as the initializers above computed them.
    private init(
        kernel: (h: Int, w: Int), stride: (h: Int, w: Int), dilation: (h: Int, w: Int),
        padBefore: (top: Int, left: Int), output: (h: Int, w: Int)
    ) {
        (kernelH, kernelW, strideH, strideW) = (kernel.h, kernel.w, stride.h, stride.w)
        (dilationH, dilationW) = (dilation.h, dilation.w)
        (padTop, padLeft, outH, outW) = (padBefore.top, padBefore.left, output.h, output.w)
    }
}
