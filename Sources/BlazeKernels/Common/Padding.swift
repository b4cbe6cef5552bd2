/// TFLite's padding schemes for convolutions and pooling.
public enum Padding: Hashable, Sendable {
    /// Output size `ceil(in / stride)`; the input is padded with zeros, the smaller half before.
    case same
    /// Output size `ceil((in - effectiveKernel + 1) / stride)`; no padding.
    case valid
}

/// The spatial geometry of a sliding-window operator (convolution, depthwise convolution, pooling),
/// computed exactly as TFLite does (`ComputePaddingHeightWidth`).
public struct WindowGeometry: Hashable, Sendable {
    public var kernelH: Int
    public var kernelW: Int
    public var strideH: Int
    public var strideW: Int
    public var dilationH: Int
    public var dilationW: Int
    /// Rows of implicit zero padding before the first input row.
    public var padTop: Int
    /// Columns of implicit zero padding before the first input column.
    public var padLeft: Int
    public var outH: Int
    public var outW: Int

    /// Explicit zero padding on each side (a PAD folded into the window operator that reads it): the
    /// output size is `(in + before + after - effectiveKernel) / stride + 1`. Returns nil when a parameter
    /// is not positive, a padding is negative or not smaller than the effective kernel, or the output
    /// would be empty.
    public init?(
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
    public init?(
        inputH: Int, inputW: Int, kernelH: Int, kernelW: Int,
        strideH: Int, strideW: Int, dilationH: Int = 1, dilationW: Int = 1,
        padding: Padding
    ) {
        guard inputH > 0, inputW > 0, kernelH > 0, kernelW > 0, strideH > 0, strideW > 0,
              dilationH > 0, dilationW > 0 else { return nil }
        func outSize(_ input: Int, _ kernel: Int, _ stride: Int, _ dilation: Int) -> Int {
            let effective = (kernel - 1) * dilation + 1
            switch padding {
            case .same: return (input + stride - 1) / stride
            case .valid: return (input + stride - effective) / stride
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

/// A window kernel that can take over the PAD in front of it (`Conv2D`, `DepthwiseConv2D`): folding replaces its
/// input shape and its window geometry, and nothing else.
package protocol PaddingFoldingKernel {
    var inputShape: Shape4 { get set }
    var geometry: WindowGeometry { get set }
}

extension PaddingFoldingKernel {
    /// This kernel reading `inputShape` with explicit padding instead of the padded input it reads now: its
    /// geometry's `foldingPadding`, which throws for a geometry that cannot take the PAD over.
    package func foldedPadding(
        inputShape: Shape4, padTop: Int, padBottom: Int, padLeft: Int, padRight: Int
    ) throws(KernelError) -> Self {
        var copy = self
        copy.geometry = try geometry.foldingPadding(
            of: self.inputShape, into: inputShape, padTop: padTop, padBottom: padBottom, padLeft: padLeft,
            padRight: padRight)
        copy.inputShape = inputShape
        return copy
    }
}

extension WindowGeometry {
    /// This geometry — VALID and unpadded, over `paddedInput` — as explicit padding of `input` instead: the
    /// geometry of a window operator that takes over the PAD that made `paddedInput` from `input`.
    ///
    /// - Throws: `KernelError.invalidParameter` when this geometry pads already, or `.invalidShape` when
    ///   padding `input` does not give `paddedInput` or the padding is not smaller than the kernel.
    public func foldingPadding(
        of paddedInput: Shape4, into input: Shape4, padTop: Int, padBottom: Int, padLeft: Int, padRight: Int
    ) throws(KernelError) -> WindowGeometry {
        guard self.padTop == 0, self.padLeft == 0,
              (paddedInput.h - ((kernelH - 1) * dilationH + 1)) / strideH + 1 == outH,
              (paddedInput.w - ((kernelW - 1) * dilationW + 1)) / strideW + 1 == outW else {
            throw .invalidParameter("only a VALID, unpadded kernel can take over a PAD")
        }
        guard input.n == paddedInput.n, input.c == paddedInput.c,
              input.h + padTop + padBottom == paddedInput.h, input.w + padLeft + padRight == paddedInput.w,
              let folded = WindowGeometry(
                  inputH: input.h, inputW: input.w, kernelH: kernelH, kernelW: kernelW,
                  strideH: strideH, strideW: strideW, dilationH: dilationH, dilationW: dilationW,
                  padTop: padTop, padBottom: padBottom, padLeft: padLeft, padRight: padRight),
              folded.outH == outH, folded.outW == outW else {
            throw .invalidShape("padding \(input) by (\(padTop), \(padBottom), \(padLeft), \(padRight)) does not give "
                + "\(paddedInput), or the padding is not smaller than the kernel")
        }
        return folded
    }
}
