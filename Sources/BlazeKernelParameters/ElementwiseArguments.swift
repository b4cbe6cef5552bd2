// The arguments of the elementwise microkernels that take more than a count and two or three buffers.

/// An operand read with broadcasting: its first element and its strides in elements (0 along the dimensions
/// it is broadcast in; the channel stride 0 or 1).
package struct StridedOperand {
    package var base: UnsafePointer<Float>
    package var strides: Dimensions4

    package init(_ base: UnsafePointer<Float>, strides: Dimensions4) {
        (self.base, self.strides) = (base, strides)
    }
}

/// A binary operation over a 4-D output `[n, h, w, c]` (dense) whose operands are read with broadcasting,
/// then the clamp; output rows (of `n·h`) `rows` only.
package struct BroadcastArguments {
    package var shape: Dimensions4
    package var lhs, rhs: StridedOperand
    package var output: UnsafeMutablePointer<Float>
    package var bounds: OutputBounds
    package var rows: Range<Int>

    package init(
        shape: Dimensions4, lhs: StridedOperand, rhs: StridedOperand, output: UnsafeMutablePointer<Float>,
        bounds: OutputBounds, rows: Range<Int>
    ) {
        (self.shape, self.lhs, self.rhs, self.output, self.bounds, self.rows) = (shape, lhs, rhs, output, bounds, rows)
    }
}

/// `x >= 0 ? x : x · alpha` over a 4-D output `[n, h, w, c]` (dense), both operands read with broadcasting.
/// `output` may equal the input's base when the input is not broadcast.
package struct PReLUArguments {
    package var shape: Dimensions4
    package var input, alpha: StridedOperand
    package var output: UnsafeMutablePointer<Float>

    package init(
        shape: Dimensions4, input: StridedOperand, alpha: StridedOperand, output: UnsafeMutablePointer<Float>
    ) {
        (self.shape, self.input, self.alpha, self.output) = (shape, input, alpha, output)
    }
}

/// `prelu(clamp(lhs + rhs), alpha[channel])` over `pixels` dense pixels of `channels`.
package struct AddPReLUArguments {
    package var pixels, channels: Int
    package var lhs, rhs, alpha: UnsafePointer<Float>
    package var output: UnsafeMutablePointer<Float>
    package var bounds: OutputBounds

    package init(
        pixels: Int, channels: Int, lhs: UnsafePointer<Float>, rhs: UnsafePointer<Float>,
        alpha: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, bounds: OutputBounds
    ) {
        (self.pixels, self.channels, self.lhs, self.rhs, self.alpha, self.output, self.bounds) =
            (pixels, channels, lhs, rhs, alpha, output, bounds)
    }
}

/// A BlazeBlock's shortcut added to its main branch in one pass, rows of one image (see
/// `Microkernels.residualAdd`): the shortcut optionally 2x2-max-pooled and zero-padded in channels.
package struct ResidualAddArguments {
    package var shortcut: UnsafePointer<Float>
    /// The shortcut's pixels per row (before pooling) and channels.
    package var shortcutWidth, shortcutChannels: Int
    /// The shortcut is 2x2-max-pooled (stride 2) and clamped to `poolBounds` first.
    package var pooled: Bool
    package var poolBounds: OutputBounds
    /// The ADD's operand order: `shortcut + main` when true, `main + shortcut` otherwise.
    package var shortcutFirst: Bool
    package var main: UnsafePointer<Float>
    package var output: UnsafeMutablePointer<Float>
    /// The output's (and main's) pixels per row and channels.
    package var width, channels: Int
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
        (self.shortcut, self.shortcutWidth, self.shortcutChannels, self.pooled, self.poolBounds) =
            (shortcut, shortcutWidth, shortcutChannels, pooled, poolBounds)
        (self.shortcutFirst, self.main, self.output, self.width, self.channels) =
            (shortcutFirst, main, output, width, channels)
        (self.rows, self.bounds, self.alpha) = (rows, bounds, alpha)
    }
}
