// The arguments of the pooling and resampling microkernels.

/// Max or average pooling of one image (NHWC, the same channels in and out): the window's in-bounds taps
/// only, then the clamp.
package struct PoolArguments {
    package var input: UnsafePointer<Float>
    package var inputExtent: ImageExtent
    package var output: UnsafeMutablePointer<Float>
    package var outputExtent: ImageExtent
    package var window: FilterWindow
    package var bounds: OutputBounds
    /// The output rows to compute, a subrange of `0..<outputExtent.height` (clipped to it).
    package var outputRows: Range<Int>

    package init(
        input: UnsafePointer<Float>, inputExtent: ImageExtent, output: UnsafeMutablePointer<Float>,
        outputExtent: ImageExtent, window: FilterWindow, bounds: OutputBounds, outputRows: Range<Int>
    ) {
        self.input = input
        self.inputExtent = inputExtent
        self.output = output
        self.outputExtent = outputExtent
        self.window = window
        self.bounds = bounds
        self.outputRows = outputRows
    }
}

/// Constant padding of a 4-D tensor: `before` elements of `value` before each dimension's input, the rest
/// after it up to `outputShape`.
package struct PadArguments {
    package var input: UnsafePointer<Float>
    package var inputShape: Dimensions4
    package var output: UnsafeMutablePointer<Float>
    package var outputShape: Dimensions4
    package var before: Dimensions4
    package var value: Float
    /// The output rows (of `n·h`) to write.
    package var outputRows: Range<Int>

    package init(
        input: UnsafePointer<Float>, inputShape: Dimensions4, output: UnsafeMutablePointer<Float>,
        outputShape: Dimensions4, before: Dimensions4, value: Float, outputRows: Range<Int>
    ) {
        self.input = input
        self.inputShape = inputShape
        self.output = output
        self.outputShape = outputShape
        self.before = before
        self.value = value
        self.outputRows = outputRows
    }
}

/// Bilinear resizing of one image through the coordinate tables built at creation (see `ResizeBilinear`):
/// output row `y` reads input rows `table[2y]` and `table[2y + 1]` with weight `lerp[y]` for the second,
/// column `x` input columns `table[2(outH + x)]` and `table[2(outH + x) + 1]` with weight `lerp[outH + x]`.
package struct ResizeBilinearArguments {
    package var input: UnsafePointer<Float>
    package var inputWidth: Int
    package var channels: Int
    package var output: UnsafeMutablePointer<Float>
    package var outputHeight: Int
    package var outputWidth: Int
    package var table: UnsafePointer<Int>
    package var lerp: UnsafePointer<Float>
    /// The output rows to compute.
    package var outputRows: Range<Int>

    package init(
        input: UnsafePointer<Float>, inputWidth: Int, channels: Int, output: UnsafeMutablePointer<Float>,
        outputHeight: Int, outputWidth: Int, table: UnsafePointer<Int>, lerp: UnsafePointer<Float>,
        outputRows: Range<Int>
    ) {
        self.input = input
        self.inputWidth = inputWidth
        self.channels = channels
        self.output = output
        self.outputHeight = outputHeight
        self.outputWidth = outputWidth
        self.table = table
        self.lerp = lerp
        self.outputRows = outputRows
    }
}
