extension ResizeBilinear {
    /// Vectorized over channels with the coordinate tables built at creation (`Microkernels.resizeBilinear` on
    /// `instructionSet`). Same operations in the same order as the reference, so the results are bit-identical.
    func runSIMD(input: UnsafePointer<Float>, output: UnsafeMutablePointer<Float>) {
        let i = inputShape, o = outputShape
        let resize = instructionSet.microkernels.resizeBilinear
        let table = UnsafePointer(indices.pointer)
        let lerp = UnsafePointer(fractions.pointer)
        for b in 0..<o.n {
            resize(input + b * i.h * i.w * i.c, i.w, i.c, output + b * o.h * o.w * o.c, o.h, o.w, table, lerp, 0..<o.h)
        }
    }
}
