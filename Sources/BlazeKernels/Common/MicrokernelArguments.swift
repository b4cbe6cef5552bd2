// The kernels' own descriptions turned into the microkernels' argument pieces (`BlazeKernelParameters`).

import BlazeKernelParameters

extension Shape4 {
    /// One image of this NHWC shape (the batch dimension dropped).
    var imageExtent: ImageExtent { ImageExtent(height: h, width: w, channels: c) }

    /// The four sizes as the microkernels take them.
    var sizes: Dimensions4 { (n, h, w, c) }
}

extension WindowGeometry {
    /// The window as the microkernels take it (sizes, strides, leading padding, dilations).
    var filterWindow: FilterWindow {
        FilterWindow(
            kernelHeight: kernelH, kernelWidth: kernelW, strideHeight: strideH, strideWidth: strideW,
            padTop: padTop, padLeft: padLeft, dilationHeight: dilationH, dilationWidth: dilationW)
    }
}

extension FusedActivation {
    /// The clamp as the microkernels take it.
    var outputBounds: OutputBounds {
        let (lower, upper) = bounds
        return OutputBounds(lower: lower, upper: upper)
    }
}

extension BroadcastPlan.Strides {
    /// The strides as the microkernels take them.
    var elements: Dimensions4 { (n, h, w, c) }
}

extension Pieces {
    /// `forEachImage` for an operator whose window slides over NHWC images: calls `body` once per image that
    /// `pieces` (output rows of `n·h`) touch, with that image's operands and rows.
    static func forEachImage(
        _ pieces: Range<Int>, input: UnsafePointer<Float>, _ inputShape: Shape4, output: UnsafeMutablePointer<Float>,
        _ outputShape: Shape4, window: FilterWindow, bounds: OutputBounds, _ body: (WindowOperands) -> Void
    ) {
        let inputExtent = inputShape.imageExtent, outputExtent = outputShape.imageExtent
        forEachImage(pieces, input: input, inputShape, output: output, outputShape) { image, result, rows in
            body(WindowOperands(
                input: image, inputExtent: inputExtent, output: result, outputExtent: outputExtent, window: window,
                bounds: bounds, outputRows: rows))
        }
    }
}
