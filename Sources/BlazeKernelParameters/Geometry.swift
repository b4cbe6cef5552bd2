// The pieces that the microkernels' argument structs share: an image's extent, a filter window, the output
// clamp, and the operands of a window sliding over one image. This module holds only types, so that both builds
// of the microkernels (`BlazeKernels` and `BlazeKernelsFMA`) take and hand out the very same argument and table
// types.

/// The four sizes or strides of an NHWC tensor, in elements.
package typealias Dimensions4 = (n: Int, h: Int, w: Int, c: Int)

/// One image of an NHWC tensor (the batch dimension excluded): height, width and channels, all ≥ 0.
package struct ImageExtent: Sendable, Equatable {
    package var height, width, channels: Int

    package init(height: Int, width: Int, channels: Int) {
        (self.height, self.width, self.channels) = (height, width, channels)
    }
}

/// A filter (or pooling) window sliding over an image: its size, strides and dilations (all positive), and
/// the padding before the first row and column (TFLite's SAME or VALID, already resolved; ≥ 0).
package struct FilterWindow: Sendable, Equatable {
    package var kernelHeight, kernelWidth: Int
    package var strideHeight, strideWidth: Int
    /// Rows and columns of implicit padding before the input.
    package var padTop, padLeft: Int
    package var dilationHeight, dilationWidth: Int

    package init(
        kernelHeight: Int, kernelWidth: Int, strideHeight: Int, strideWidth: Int, padTop: Int, padLeft: Int,
        dilationHeight: Int = 1, dilationWidth: Int = 1
    ) {
        (self.kernelHeight, self.kernelWidth, self.strideHeight, self.strideWidth) =
            (kernelHeight, kernelWidth, strideHeight, strideWidth)
        (self.padTop, self.padLeft, self.dilationHeight, self.dilationWidth) =
            (padTop, padLeft, dilationHeight, dilationWidth)
    }
}

/// The clamp of a fused activation: outputs are clamped to `lower ... upper` (`-infinity ... infinity`
/// for none, which the kernels skip).
package struct OutputBounds: Sendable, Equatable {
    package var lower, upper: Float

    package init(lower: Float, upper: Float) {
        (self.lower, self.upper) = (lower, upper)
    }

    /// Whether the clamp can change a value.
    @inline(__always) package var clamps: Bool { lower > -.infinity || upper < .infinity }
}

/// The operands of an operator whose window slides over one NHWC image (convolutions, pooling): what it reads
/// and writes, the window, the clamp, and the output rows to compute. Pointers are borrowed for the call only.
package struct WindowOperands {
    package var input: UnsafePointer<Float>
    package var inputExtent: ImageExtent
    /// Must not overlap `input`.
    package var output: UnsafeMutablePointer<Float>
    package var outputExtent: ImageExtent
    package var window: FilterWindow
    package var bounds: OutputBounds
    /// The output rows to compute, a subrange of `0..<outputExtent.height` (clipped to it); every output value
    /// is computed the same way whatever the range.
    package var outputRows: Range<Int>

    package init(
        input: UnsafePointer<Float>, inputExtent: ImageExtent, output: UnsafeMutablePointer<Float>,
        outputExtent: ImageExtent, window: FilterWindow, bounds: OutputBounds, outputRows: Range<Int>
    ) {
        (self.input, self.inputExtent, self.output, self.outputExtent) = (input, inputExtent, output, outputExtent)
        (self.window, self.bounds, self.outputRows) = (window, bounds, outputRows)
    }
}
