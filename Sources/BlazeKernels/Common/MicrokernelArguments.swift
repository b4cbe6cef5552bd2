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
