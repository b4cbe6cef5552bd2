extension AveragePool2D {
    /// The scalar oracle: TFLite's reference average pool (sum of in-bounds taps / their count). A window
    /// with no in-bounds tap, impossible with SAME or VALID, would produce `act(0)`.
    package func runReference(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        runReferenceReduction(
            input: input, output: output, initial: (total: Float(0), taps: 0),
            combine: { state, value in
                state.total += value
                state.taps += 1
            },
            finish: { state in state.taps == 0 ? 0 : state.total / Float(state.taps) })
    }
}
