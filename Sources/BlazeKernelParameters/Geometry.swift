// The pieces that the microkernels' argument structs share: an image's extent, a filter window, the output
// clamp. This module holds only types, so that both builds of the microkernels (`BlazeKernels` and
// `BlazeKernelsFMA`) take and hand out the very same argument and table types.

/// The four sizes or strides of an NHWC tensor, in elements.
package typealias Dimensions4 = (n: Int, h: Int, w: Int, c: Int)

/// One image of an NHWC tensor (the batch dimension excluded): height, width and channels, all ≥ 0.
package struct ImageExtent: Sendable, Equatable {
    package var height: Int
    package var width: Int
    package var channels: Int

    package init(height: Int, width: Int, channels: Int) {
        self.height = height
        self.width = width
        self.channels = channels
    }

    /// Floats in one row of the image (`width · channels`).
    @inline(__always) package var rowSize: Int { width * channels }
}

/// A filter (or pooling) window sliding over an image: its size, strides and dilations (all positive), and
/// the padding before the first row and column (TFLite's SAME or VALID, already resolved; ≥ 0).
package struct FilterWindow: Sendable, Equatable {
    package var kernelHeight: Int
    package var kernelWidth: Int
    package var strideHeight: Int
    package var strideWidth: Int
    package var padTop: Int
    package var padLeft: Int
    package var dilationHeight: Int
    package var dilationWidth: Int

    package init(
        kernelHeight: Int, kernelWidth: Int, strideHeight: Int, strideWidth: Int, padTop: Int, padLeft: Int,
        dilationHeight: Int = 1, dilationWidth: Int = 1
    ) {
        self.kernelHeight = kernelHeight
        self.kernelWidth = kernelWidth
        self.strideHeight = strideHeight
        self.strideWidth = strideWidth
        self.padTop = padTop
        self.padLeft = padLeft
        self.dilationHeight = dilationHeight
        self.dilationWidth = dilationWidth
    }
}

/// The clamp of a fused activation: outputs are clamped to `lower ... upper` (`-infinity ... infinity`
/// for none, which the kernels skip).
package struct OutputBounds: Sendable, Equatable {
    package var lower: Float
    package var upper: Float

    package init(lower: Float, upper: Float) {
        self.lower = lower
        self.upper = upper
    }

    /// No clamp.
    package static let unbounded = OutputBounds(lower: -.infinity, upper: .infinity)

    /// Whether the clamp can change a value.
    @inline(__always) package var clamps: Bool { lower > -.infinity || upper < .infinity }
}
