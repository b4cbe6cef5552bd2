// The arguments of the padding and resampling microkernels (pooling takes `WindowOperands` as they are).

/// Constant padding of a 4-D tensor: `before` elements of `value` before each dimension's input, the rest
/// after it up to `outputShape`.
package struct PadArguments {
    package var input: UnsafePointer<Float>
    package var output: UnsafeMutablePointer<Float>
    /// The input's and output's shapes, and the padding before the input in each dimension.
    package var inputShape, outputShape, before: Dimensions4
    /// What the padding holds.
    package var value: Float
    /// The output rows (of `n·h`) to write.
    package var outputRows: Range<Int>

    package init(
        _ input: UnsafePointer<Float>, to output: UnsafeMutablePointer<Float>,
        shapes: (input: Dimensions4, output: Dimensions4), before: Dimensions4, value: Float, outputRows: Range<Int>
    ) {
        (self.input, self.output, self.inputShape, self.outputShape) = (input, output, shapes.input, shapes.output)
        (self.before, self.value, self.outputRows) = (before, value, outputRows)
    }
}

/// Bilinear resizing of one image through the coordinate tables built at creation (see `ResizeBilinear`):
/// output row `y` reads input rows `table[2y]` and `table[2y + 1]` with weight `lerp[y]` for the second,
/// column `x` input columns `table[2(outH + x)]` and `table[2(outH + x) + 1]` with weight `lerp[outH + x]`.
package struct ResizeBilinearArguments {
    package var input: UnsafePointer<Float>
    package var inputWidth, channels: Int
    package var output: UnsafeMutablePointer<Float>
    package var outputHeight, outputWidth: Int
    package var table: UnsafePointer<Int>
    package var lerp: UnsafePointer<Float>
    /// The output rows to compute.
    package var outputRows: Range<Int>

    package init(
        input: UnsafePointer<Float>, inputWidth: Int, channels: Int, output: UnsafeMutablePointer<Float>,
        outputHeight: Int, outputWidth: Int, table: UnsafePointer<Int>, lerp: UnsafePointer<Float>,
        outputRows: Range<Int>
    ) {
        (self.input, self.inputWidth, self.channels, self.output) = (input, inputWidth, channels, output)
        (self.outputHeight, self.outputWidth, self.table, self.lerp, self.outputRows) =
            (outputHeight, outputWidth, table, lerp, outputRows)
    }
}
