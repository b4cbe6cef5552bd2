// The arguments of the elementwise microkernels that take more than a count and two or three buffers.

/// A binary operation over a 4-D output `[n, h, w, c]` whose operands are read through strides in elements
/// (0 where broadcast; the channel strides 0 or 1).
package struct BroadcastArguments {
    package var shape: Dimensions4
    package var lhs: UnsafePointer<Float>
    package var lhsStrides: Dimensions4
    package var rhs: UnsafePointer<Float>
    package var rhsStrides: Dimensions4
    package var output: UnsafeMutablePointer<Float>
    package var bounds: OutputBounds
    /// The output rows (of `n·h`) to compute.
    package var rows: Range<Int>

    package init(
        shape: Dimensions4, lhs: UnsafePointer<Float>, lhsStrides: Dimensions4, rhs: UnsafePointer<Float>,
        rhsStrides: Dimensions4, output: UnsafeMutablePointer<Float>, bounds: OutputBounds, rows: Range<Int>
    ) {
        self.shape = shape
        self.lhs = lhs
        self.lhsStrides = lhsStrides
        self.rhs = rhs
        self.rhsStrides = rhsStrides
        self.output = output
        self.bounds = bounds
        self.rows = rows
    }
}

/// `x >= 0 ? x : x · alpha` over a 4-D output `[n, h, w, c]`, both operands read through strides in
/// elements (0 where broadcast; channel strides 0 or 1). `output` may equal `input` when the input is not
/// broadcast.
package struct PReLUArguments {
    package var shape: Dimensions4
    package var input: UnsafePointer<Float>
    package var inputStrides: Dimensions4
    package var alpha: UnsafePointer<Float>
    package var alphaStrides: Dimensions4
    package var output: UnsafeMutablePointer<Float>

    package init(
        shape: Dimensions4, input: UnsafePointer<Float>, inputStrides: Dimensions4, alpha: UnsafePointer<Float>,
        alphaStrides: Dimensions4, output: UnsafeMutablePointer<Float>
    ) {
        self.shape = shape
        self.input = input
        self.inputStrides = inputStrides
        self.alpha = alpha
        self.alphaStrides = alphaStrides
        self.output = output
    }
}

/// `clamp(lhs + rhs)` then PReLU with one slope per channel, over `pixels` dense pixels of `channels`.
package struct AddPReLUArguments {
    package var pixels: Int
    package var channels: Int
    package var lhs: UnsafePointer<Float>
    package var rhs: UnsafePointer<Float>
    package var alpha: UnsafePointer<Float>
    package var output: UnsafeMutablePointer<Float>
    package var bounds: OutputBounds

    package init(
        pixels: Int, channels: Int, lhs: UnsafePointer<Float>, rhs: UnsafePointer<Float>,
        alpha: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, bounds: OutputBounds
    ) {
        self.pixels = pixels
        self.channels = channels
        self.lhs = lhs
        self.rhs = rhs
        self.alpha = alpha
        self.output = output
        self.bounds = bounds
    }
}

/// A BlazeBlock's shortcut added to its main branch in one pass, rows of one image (see
/// `Microkernels.residualAdd`): the shortcut optionally 2x2-max-pooled and zero-padded in channels.
package struct ResidualAddArguments {
    package var shortcut: UnsafePointer<Float>
    /// Pixels per shortcut row (before pooling).
    package var shortcutWidth: Int
    package var shortcutChannels: Int
    /// The shortcut is 2x2-max-pooled (stride 2) and clamped to `poolBounds` first.
    package var pooled: Bool
    package var poolBounds: OutputBounds
    /// The ADD's operand order: `shortcut + main` when true, `main + shortcut` otherwise.
    package var shortcutFirst: Bool
    package var main: UnsafePointer<Float>
    package var output: UnsafeMutablePointer<Float>
    package var width: Int
    package var channels: Int
    /// The output rows to compute.
    package var rows: Range<Int>
    package var bounds: OutputBounds
    /// PReLU slopes per channel after the clamp, or nil.
    package var alpha: UnsafePointer<Float>?

    package init(
        shortcut: UnsafePointer<Float>, shortcutWidth: Int, shortcutChannels: Int, pooled: Bool,
        poolBounds: OutputBounds, shortcutFirst: Bool, main: UnsafePointer<Float>,
        output: UnsafeMutablePointer<Float>, width: Int, channels: Int, rows: Range<Int>, bounds: OutputBounds,
        alpha: UnsafePointer<Float>?
    ) {
        self.shortcut = shortcut
        self.shortcutWidth = shortcutWidth
        self.shortcutChannels = shortcutChannels
        self.pooled = pooled
        self.poolBounds = poolBounds
        self.shortcutFirst = shortcutFirst
        self.main = main
        self.output = output
        self.width = width
        self.channels = channels
        self.rows = rows
        self.bounds = bounds
        self.alpha = alpha
    }
}
