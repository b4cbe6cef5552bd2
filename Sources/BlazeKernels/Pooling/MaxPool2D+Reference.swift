extension MaxPool2D {
    /// The scalar oracle: TFLite's reference max pool.
    package func runReference(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        runReferenceReduction(
            input: input, output: output, initial: -Float.greatestFiniteMagnitude,
            combine: { maximum, value in maximum = maximum < value ? value : maximum },
            finish: { $0 })
    }
}
