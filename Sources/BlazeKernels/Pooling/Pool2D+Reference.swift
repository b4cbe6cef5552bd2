extension Pool2D {
    /// The pooling oracles' loop (reference implementations only): for each output pixel and channel, starts
    /// from `initial`, folds in the value of every in-bounds tap of the window with `combine` (filter row by
    /// filter row), and writes `finish` of the result, clamped to the fused activation's bounds.
    ///
    /// - Parameters:
    ///   - input: `inputShape.count` floats.
    ///   - output: `outputShape.count` floats.
    ///   - initial: The reduction's starting state.
    ///   - combine: Folds one tap's value into the state.
    ///   - finish: The output value of a window's final state, before the activation.
    func runReferenceReduction<State>(
        input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>, initial: State,
        combine: (inout State, Float) -> Void, finish: (State) -> Float
    ) {
        let g = geometry
        let inH = inputShape.h, inW = inputShape.w, channels = inputShape.c
        let (lower, upper) = activation.bounds
        g.forEachReferencePixel(batches: inputShape.n) { b, oy, ox, pixel in
            for c in 0..<channels {
                var state = initial
                g.forEachReferenceTap(b: b, oy: oy, ox: ox, inputH: inH, inputW: inW) { _, _, tap in
                    combine(&state, input[tap * channels + c])
                }
                output[pixel * channels + c] = clamp(finish(state), lower, upper)
            }
        }
    }
}
