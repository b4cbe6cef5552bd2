// The checks that every convolution kernel makes at creation, in the order they report: the weights' counts,
// then the strides, the dilations and the output size.

extension WindowGeometry {
    /// Validates a convolution's strides and dilations and computes its geometry (`filterShape.h x
    /// filterShape.w` taps), throwing instead of trapping.
    static func convolution(
        inputShape: Shape4, filterShape: Shape4, strideH: Int, strideW: Int, dilationH: Int, dilationW: Int,
        padding: Padding
    ) throws(KernelError) -> WindowGeometry {
        guard strideH > 0, strideW > 0 else {
            throw .invalidParameter("stride \(strideH)x\(strideW) must be positive")
        }
        guard dilationH > 0, dilationW > 0 else {
            throw .invalidParameter("dilation \(dilationH)x\(dilationW) must be positive")
        }
        guard let geometry = WindowGeometry(
            inputH: inputShape.h, inputW: inputShape.w, kernelH: filterShape.h, kernelW: filterShape.w,
            strideH: strideH, strideW: strideW, dilationH: dilationH, dilationW: dilationW, padding: padding)
        else {
            throw .invalidShape("a \(filterShape.h)x\(filterShape.w) filter with dilation \(dilationH)x\(dilationW) "
                + "gives an empty output on a \(inputShape.h)x\(inputShape.w) input (padding \(padding))")
        }
        return geometry
    }
}

extension KernelError {
    /// Checks that a filter of `filterCount` values fills `filterShape`, and a bias of `biasCount` values,
    /// when given, has one per output channel.
    static func checkWeights(
        filterCount: Int, filterShape: Shape4, biasCount: Int?, outputChannels: Int
    ) throws(KernelError) {
        guard filterCount == filterShape.count else {
            throw .weightCountMismatch(name: "filter", expected: filterShape.count, actual: filterCount)
        }
        if let biasCount, biasCount != outputChannels {
            throw .weightCountMismatch(name: "bias", expected: outputChannels, actual: biasCount)
        }
    }
}
